"""PyTorch 2.13.0's answers to ``_torch_errors_cases.py`` (written by ``_torch_errors_record.py``)."""
EXPECTED = {'bool_add_': ('RuntimeError', "result type Long can't be cast to the desired output type Bool"),
 'bool_mul_': ('RuntimeError', "result type Long can't be cast to the desired output type Bool"),
 'long_add_float': ('RuntimeError', "result type Float can't be cast to the desired output type Long"),
 'long_sqrt_': ('RuntimeError', "result type Float can't be cast to the desired output type Long"),
 'float_add_complex_': ('RuntimeError', "result type ComplexFloat can't be cast to the desired output type Float"),
 'leaf_add_': ('RuntimeError', 'a leaf Variable that requires grad is being used in an in-place operation.'),
 'maximum_number': ('TypeError', "maximum(): argument 'other' (position 2) must be Tensor, not int"),
 'minimum_number': ('TypeError', "minimum(): argument 'other' (position 2) must be Tensor, not float"),
 'atan2_number': ('TypeError', "atan2(): argument 'other' (position 2) must be Tensor, not int"),
 'hypot_number': ('TypeError', "hypot(): argument 'other' (position 2) must be Tensor, not float"),
 'logaddexp_number': ('TypeError', "logaddexp(): argument 'other' (position 2) must be Tensor, not int"),
 'logical_and_number': ('TypeError', "logical_and(): argument 'other' (position 2) must be Tensor, not int"),
 'isclose_number': ('TypeError', "isclose(): argument 'other' (position 2) must be Tensor, not float"),
 'addcmul_number': ('TypeError', "addcmul(): argument 'tensor2' (position 3) must be Tensor, not int"),
 'bitwise_and_float': ('NotImplementedError', '"bitwise_and_cpu" not implemented for \'Float\''),
 'bitwise_or_double': ('NotImplementedError', '"bitwise_or_cpu" not implemented for \'Double\''),
 'bitwise_xor_number': ('NotImplementedError', '"bitwise_xor_cpu" not implemented for \'Float\''),
 'bitwise_not_float': ('NotImplementedError', '"bitwise_not_cpu" not implemented for \'Float\''),
 'bitwise_and_shapes_first': ('RuntimeError',
                              'The size of tensor a (3) must match the size of tensor b (4) at non-singleton '
                              'dimension 1'),
 'sum_float_dim': ('TypeError',
                   'sum() received an invalid combination of arguments - got (float), but expected one of:\n'
                   ' * (*, torch.dtype dtype = None)\n'
                   ' * (tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)\n'),
 'softmax_tensor_dim': ('TypeError', "softmax(): argument 'dim' (position 1) must be int, not Tensor"),
 'cumsum_none_dim': ('TypeError', "cumsum(): argument 'dim' (position 1) must be int, not NoneType"),
 'argsort_0d_dim': ('IndexError', 'Dimension out of range (expected to be in range of [-1, 0], but got 1)'),
 'flatten_0d_dim': ('IndexError', 'Dimension out of range (expected to be in range of [-1, 0], but got 1)'),
 'median_0d_dim': ('IndexError', 'Dimension out of range (expected to be in range of [-1, 0], but got 1)'),
 'sum_numpy_dim': ('ok', 'float32', (2,)),
 'sum_0d_tensor_dim': ('ok', 'float32', (2,)),
 'rand_long': ('NotImplementedError', '"check_uniform_bounds" not implemented for \'Long\''),
 'randn_bool': ('NotImplementedError', '"normal_kernel_cpu" not implemented for \'Bool\''),
 'rand_like_long': ('NotImplementedError', '"check_uniform_bounds" not implemented for \'Long\''),
 'randn_like_byte': ('NotImplementedError', '"normal_kernel_cpu" not implemented for \'Byte\''),
 'normal_long_mean': ('NotImplementedError', '"normal_kernel_cpu" not implemented for \'Long\''),
 'uniform_long': ('NotImplementedError', '"check_uniform_bounds" not implemented for \'Long\''),
 'normal_bool': ('NotImplementedError', '"normal_kernel_cpu" not implemented for \'Bool\''),
 'log_normal_complex': ('NotImplementedError', '"log_normal_cpu" not implemented for \'ComplexFloat\''),
 'geometric_bool': ('NotImplementedError', '"geometric_cpu" not implemented for \'Bool\''),
 'exponential_long': ('RuntimeError',
                      'Exponential distribution is a continuous probability distribution. dtype must be a floating '
                      'point but you specified Long'),
 'cauchy_byte': ('RuntimeError',
                 'Cauchy distribution is a continuous probability distribution. dtype must be a floating point but '
                 'you specified unsigned char'),
 'bernoulli_long': ('NotImplementedError', '"bernoulli_tensor_cpu_p_" not implemented for \'Long\''),
 'bernoulli_complex_': ('NotImplementedError', '"bernoulli_scalar_cpu_" not implemented for \'ComplexFloat\''),
 'poisson_long': ('NotImplementedError', '"poisson_cpu" not implemented for \'Long\''),
 'random_complex': ('RuntimeError', 'check_random_bounds handles only integral, floating-point and boolean types'),
 'randint_complex': ('RuntimeError', 'check_random_bounds handles only integral, floating-point and boolean types'),
 'bernoulli_long_p': ('ok', 'int64', (2, 3)),
 'random_bool': ('ok', 'bool', (2, 3)),
 'geometric_byte': ('ok', 'uint8', (2, 3)),
 'rand_complex': ('ok', 'complex64', (2,)),
 'matmul_bool': ('NotImplementedError', '"addmm_impl_cpu_" not implemented for \'Bool\''),
 'matmul_bool_vectors': ('NotImplementedError', '"dot" not implemented for \'Bool\''),
 'matmul_bool_matrix_vector': ('NotImplementedError', '"addmv_impl_cpu" not implemented for \'Bool\''),
 'matmul_bool_batched': ('NotImplementedError', '"bmm" not implemented for \'Bool\''),
 'matmul_bool_shapes_first': ('RuntimeError', 'mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)'),
 'mm_bool': ('NotImplementedError', '"addmm_impl_cpu_" not implemented for \'Bool\''),
 'bmm_bool': ('NotImplementedError', '"bmm" not implemented for \'Bool\''),
 'mv_bool': ('NotImplementedError', '"addmv_impl_cpu" not implemented for \'Bool\''),
 'dot_bool': ('NotImplementedError', '"dot" not implemented for \'Bool\''),
 'inner_bool': ('NotImplementedError', '"addmm_impl_cpu_" not implemented for \'Bool\''),
 'trace_bool': ('NotImplementedError', '"trace" not implemented for \'Bool\''),
 'addmm_bool': ('NotImplementedError', '"addmm_impl_cpu_" not implemented for \'Bool\''),
 'baddbmm_bool': ('NotImplementedError', '"baddbmm" not implemented for \'Bool\''),
 'linear_bool': ('NotImplementedError', '"addmm_impl_cpu_" not implemented for \'Bool\''),
 'outer_bool': ('ok', 'bool', (3, 3)),
 'addr_bool': ('ok', 'bool', (2, 2)),
 'trace_long': ('ok', 'int64', ()),
 'elu_long': ('NotImplementedError', '"elu_cpu" not implemented for \'Long\''),
 'leaky_relu_bool': ('NotImplementedError', '"leaky_relu_cpu" not implemented for \'Bool\''),
 'gelu_long': ('NotImplementedError', '"GeluKernelImpl" not implemented for \'Long\''),
 'softplus_long': ('NotImplementedError', '"softplus_cpu" not implemented for \'Long\''),
 'mish_long': ('NotImplementedError', '"mish_cpu" not implemented for \'Long\''),
 'celu_long': ('NotImplementedError', '"elu_cpu" not implemented for \'Long\''),
 'rrelu_long': ('NotImplementedError', '"leaky_relu_cpu" not implemented for \'Long\''),
 'rrelu_bounds': ('RuntimeError', 'Lower bound should be less than or equal to the upper bound'),
 'hardshrink_long': ('NotImplementedError', '"hardshrink_cpu" not implemented for \'Long\''),
 'hardshrink_complex': ('NotImplementedError', '"hardshrink_cpu" not implemented for \'ComplexFloat\''),
 'softshrink_bool': ('NotImplementedError', '"softshrink_check" not implemented for \'Bool\''),
 'prelu_long': ('NotImplementedError', '"prelu_cpu" not implemented for \'Long\''),
 'celu_none': ('TypeError', "celu(): argument 'input' (position 1) must be Tensor, not NoneType"),
 'frac_long': ('NotImplementedError', '"frac_cpu" not implemented for \'Long\''),
 'frac_bool': ('NotImplementedError', '"frac_cpu" not implemented for \'Bool\''),
 'hypot_long': ('NotImplementedError', '"hypot_cpu" not implemented for \'Long\''),
 'logaddexp_int': ('NotImplementedError', '"logaddexp_cpu" not implemented for \'Int\''),
 'logaddexp2_short': ('NotImplementedError', '"logaddexp2_cpu" not implemented for \'Short\''),
 'hypot_shapes_first': ('RuntimeError',
                        'The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1'),
 'hypot_long_float': ('ok', 'float32', (2, 3)),
 'abs_bool': ('NotImplementedError', '"abs_cpu" not implemented for \'Bool\''),
 'floor_bool': ('NotImplementedError', '"floor_vml_cpu" not implemented for \'Bool\''),
 'median_bool': ('NotImplementedError', '"median_cpu" not implemented for \'Bool\''),
 'median_bool_dim': ('NotImplementedError', '"median_out" not implemented for \'Bool\''),
 'median_bool_dim_first': ('IndexError', 'Dimension out of range (expected to be in range of [-2, 1], but got 5)'),
 'nanmedian_bool': ('NotImplementedError', '"median_cpu" not implemented for \'Bool\''),
 'median_complex': ('NotImplementedError', '"median_cpu" not implemented for \'ComplexFloat\''),
 'kthvalue_bool': ('NotImplementedError', '"kthvalue_cpu" not implemented for \'Bool\''),
 'kthvalue_complex': ('NotImplementedError', '"kthvalue_cpu" not implemented for \'ComplexFloat\''),
 'mode_complex': ('NotImplementedError', '"mode_cpu" not implemented for \'ComplexFloat\''),
 'topk_bool': ('RuntimeError', 'topk does not support bool dtypes on CPU'),
 'argmax_bool': ('RuntimeError', 'argmax(): does not support bool input'),
 'argmin_bool_dim': ('RuntimeError', 'argmin(): does not support bool input'),
 'argmax_bool_dim_first': ('RuntimeError', 'argmax(): does not support bool input'),
 'searchsorted_bool': ('NotImplementedError', '"searchsorted_out_cpu" not implemented for \'Bool\''),
 'searchsorted_complex': ('NotImplementedError', '"searchsorted_out_cpu" not implemented for \'ComplexFloat\''),
 'searchsorted_number_2d': ('RuntimeError',
                            'torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension '
                            "is 1, but we got boundaries tensor dim(2) and input value's dim(0) numel(1)"),
 'searchsorted_float_bool': ('ok', 'int64', (2,)),
 'mode_bool': ('ok', 'bool', (2,)),
 'floor_divide_bool': ('NotImplementedError', '"div_floor_cpu" not implemented for \'Bool\''),
 'remainder_bool': ('NotImplementedError', '"remainder_cpu" not implemented for \'Bool\''),
 'fmod_bool': ('NotImplementedError', '"fmod_cpu" not implemented for \'Bool\''),
 'fmod_complex_number': ('NotImplementedError', '"fmod_cpu" not implemented for \'ComplexFloat\''),
 'div_floor_bool': ('NotImplementedError', '"div_floor_cpu" not implemented for \'Bool\''),
 'div_trunc_bool': ('NotImplementedError', '"div_trunc_cpu" not implemented for \'Bool\''),
 'floor_divide_long': ('ok', 'int64', (2, 3)),
 'lt_complex_number': ('NotImplementedError', '"lt_cpu" not implemented for \'ComplexFloat\''),
 'ge_complex_number': ('NotImplementedError', '"ge_cpu" not implemented for \'ComplexFloat\''),
 'clamp_complex_tensor_bound': ('NotImplementedError', 'clamp is not supported for complex types'),
 'clamp_min_complex_number': ('NotImplementedError', 'clamp is not supported for complex types'),
 'isclose_float_double': ('RuntimeError', 'Float did not match Double'),
 'allclose_long_float': ('RuntimeError', 'Long did not match Float'),
 'cross_float_double': ('RuntimeError', 'expected scalar type Float but found Double'),
 'cross_bool': ('NotImplementedError', '"cross" not implemented for \'Bool\''),
 'cdist_float_double': ('RuntimeError', 'expected scalar type Float but found Double'),
 'cdist_long': ('RuntimeError', 'cdist only supports floating-point dtypes, X2 got: Long'),
 'cdist_half': ('NotImplementedError', '"cdist" not implemented for \'Half\''),
 'vecdot_float_double': ('RuntimeError',
                         'linalg.vecdot: Expected x and y to have the same dtype, but found x of type Float and y of '
                         'type Double instead'),
 'vecdot_long': ('RuntimeError', 'linalg.vecdot: Expected a floating point or complex tensor as input. Got Long'),
 'einsum_float_double': ('RuntimeError', 'expected scalar type Float but found Double'),
 'dropout_long': ('RuntimeError', "result type Float can't be cast to the desired output type Long"),
 'dropout2d_bool': ('RuntimeError', "result type Float can't be cast to the desired output type Bool"),
 'dropout_long_eval': ('ok', 'int64', (2, 3)),
 'i0_complex': ('NotImplementedError', '"i0_vml_cpu" not implemented for \'ComplexFloat\''),
 'i0_long': ('ok', 'float32', (2, 3)),
 'ndtri_half': ('NotImplementedError', '"ndtri_cpu" not implemented for \'Half\''),
 'entr_complex': ('NotImplementedError', '"entr_cpu" not implemented for \'ComplexFloat\''),
 'max_pool1d_long': ('NotImplementedError', '"max_pool1d_impl" not implemented for \'Long\''),
 'max_pool1d_long_indices': ('ok', 'int64', (1, 1, 2)),
 'max_pool2d_bool': ('NotImplementedError', '"max_pool2d" not implemented for \'Bool\''),
 'max_pool2d_long': ('ok', 'int64', (1, 1, 2, 2)),
 'adaptive_max_pool2d_long': ('NotImplementedError', '"adaptive_max_pool2d" not implemented for \'Long\''),
 'adaptive_max_pool1d_int': ('NotImplementedError', '"adaptive_max_pool2d" not implemented for \'Int\''),
 'avg_pool1d_int': ('NotImplementedError', '"avg_pool2d" not implemented for \'Int\''),
 'avg_pool3d_half': ('NotImplementedError', '"avg_pool3d_out_frame" not implemented for \'Half\''),
 'adaptive_avg_pool3d_long': ('NotImplementedError', '"adaptive_avg_pool3d_cpu" not implemented for \'Long\''),
 'histc_long': ('NotImplementedError', '"histogram_cpu" not implemented for \'Long\''),
 'histc_bool': ('NotImplementedError', '"linspace_cpu" not implemented for \'Bool\''),
 'histc_complex': ('NotImplementedError', '"aminmax_cpu" not implemented for \'ComplexFloat\''),
 'histc_float_bins': ('TypeError', "histc(): argument 'bins' (position 2) must be int, not float"),
 'cartesian_prod_matrix': ('RuntimeError', 'Expect a 1D vector, but got shape [2, 3]'),
 'combinations_matrix': ('RuntimeError', 'Expect a 1D vector, but got shape [2, 3]'),
 'bernoulli_p_number': ('RuntimeError', 'bernoulli_ expects p to be in [0, 1], but got p=2'),
 'bernoulli_p_tensor': ('RuntimeError',
                        'Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be '
                        'improved?  If so, please report an enhancement request to PyTorch.)'),
 'interpolate_nearest_long': ('NotImplementedError',
                              '"upsample_nearest2d_channels_last" not implemented for \'Long\''),
 'interpolate_linear_byte': ('NotImplementedError', '"compute_indices_weights_linear" not implemented for \'Byte\''),
 'interpolate_bicubic_bool': ('NotImplementedError', '"compute_indices_weights_cubic" not implemented for \'Bool\''),
 'interpolate_nearest_byte': ('ok', 'uint8', (1, 1, 8, 8)),
 'index_add_out_of_range': ('IndexError', 'index out of range in self'),
 'index_add_matrix_out_of_range': ('RuntimeError', 'index 5 is out of bounds for dimension 0 with size 3'),
 'index_fill_out_of_range': ('IndexError', 'index 5 is out of bounds for dimension 0 with size 3'),
 'nll_loss_long_input': ('NotImplementedError', '"nll_loss_out_frame" not implemented for \'Long\''),
 'nll_loss2d_long_input': ('NotImplementedError', '"nll_loss2d_forward_out_frame" not implemented for \'Long\''),
 'multi_margin_loss_half': ('NotImplementedError', '"multi_margin_loss_cpu_kernel" not implemented for \'Half\''),
 'multilabel_margin_loss_long': ('NotImplementedError',
                                 '"multilabel_margin_loss_forward_out_frame" not implemented for \'Long\''),
 'sgn_bool': ('ok', 'bool', (2, 3)),
 'eigh_long': ('NotImplementedError', '"linalg_eigh_cpu" not implemented for \'Long\''),
 'inv_long': ('RuntimeError', 'linalg.inv: Expected a floating point or complex tensor as input. Got Long'),
 'equal_number': ('TypeError', "equal(): argument 'other' (position 2) must be Tensor, not int"),
 'is_same_size_none': ('TypeError', "is_same_size(): argument 'other' (position 1) must be Tensor, not NoneType"),
 'promote_types_tensor': ('TypeError',
                          "promote_types(): argument 'type1' (position 1) must be torch.dtype, not Tensor"),
 'clamp_str_bound': ('TypeError',
                     'clamp() received an invalid combination of arguments - got (Tensor, str), but expected one '
                     'of:\n'
                     ' * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n'
                     ' * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n'),
 'clamp_min_none': ('TypeError',
                    'clamp_min() received an invalid combination of arguments - got (Tensor, NoneType), but expected '
                    'one of:\n'
                    ' * (Tensor input, Tensor min, *, Tensor out = None)\n'
                    ' * (Tensor input, Number min, *, Tensor out = None)\n'),
 'clamp_max_only': ('ok', 'float32', (2, 3)),
 'silu_complex': ('ok', 'complex64', (2, 3)),
 'silu_module_complex': ('ok', 'complex128', (2, 3)),
 'silu_complex_inplace': ('ok', 'complex64', (2, 3)),
 'silu_complex_requiring_grad': ('RuntimeError',
                                 'silu does not support automatic differentiation for outputs with complex dtype.'),
 'sigmoid_complex': ('ok', 'complex64', (2, 3)),
 'tanh_complex': ('ok', 'complex64', (2, 3)),
 'softsign_complex': ('ok', 'complex64', (2, 3)),
 'tanhshrink_complex': ('ok', 'complex64', (2, 3)),
 'relu_complex': ('NotImplementedError', 'clamp is not supported for complex types'),
 'hardtanh_complex': ('NotImplementedError', 'clamp is not supported for complex types'),
 'gelu_complex': ('NotImplementedError', '"GeluKernelImpl" not implemented for \'ComplexFloat\''),
 'elu_complex': ('NotImplementedError', '"elu_cpu" not implemented for \'ComplexFloat\''),
 'selu_complex': ('NotImplementedError', '"elu_cpu" not implemented for \'ComplexFloat\''),
 'leaky_relu_complex': ('NotImplementedError', '"leaky_relu_cpu" not implemented for \'ComplexFloat\''),
 'softplus_complex': ('NotImplementedError', '"softplus_cpu" not implemented for \'ComplexFloat\''),
 'logsigmoid_complex': ('NotImplementedError', '"log_sigmoid_cpu" not implemented for \'ComplexFloat\''),
 'hardswish_complex': ('NotImplementedError', '"hardswish_cpu" not implemented for \'ComplexFloat\''),
 'mish_complex': ('NotImplementedError', '"mish_cpu" not implemented for \'ComplexFloat\''),
 'softshrink_complex': ('NotImplementedError', '"softshrink_check" not implemented for \'ComplexFloat\''),
 'threshold_complex': ('NotImplementedError', '"threshold_cpu" not implemented for \'ComplexFloat\''),
 'threshold_bool': ('NotImplementedError', '"threshold_cpu" not implemented for \'Bool\''),
 'threshold_long': ('ok', 'int64', (2, 3)),
 'glu_complex': ('NotImplementedError', '"glu_cpu" not implemented for \'ComplexFloat\''),
 'softmax_complex': ('NotImplementedError', '"softmax_kernel_impl" not implemented for \'ComplexFloat\''),
 'prelu_complex_float_weight': ('RuntimeError', 'prelu: Type promoting not supported. Got ComplexFloat and Float'),
 'prelu_double_float_weight': ('RuntimeError', 'prelu: Type promoting not supported. Got Double and Float'),
 'get_rng_state': ('ok', 'uint8', (5056,)),
 'random_get_rng_state': ('ok', 'uint8', (5056,)),
 'generator_get_state': ('ok', 'uint8', (5056,)),
 'set_rng_state_ndarray': ('TypeError', 'expected a torch.ByteTensor, but got numpy.ndarray'),
 'generator_set_state_list': ('TypeError', 'expected a torch.ByteTensor, but got list'),
 'add_numbers': ('ok', 'int64', ()),
 'add_float_number': ('ok', 'float32', ()),
 'add_bools': ('ok', 'bool', ()),
 'add_complex_number': ('ok', 'complex64', ()),
 'add_numbers_alpha': ('ok', 'int64', ()),
 'sub_numbers': ('ok', 'float32', ()),
 'subtract_numbers': ('ok', 'int64', ()),
 'mul_numbers': ('ok', 'int64', ()),
 'multiply_numbers': ('ok', 'float32', ()),
 'div_numbers': ('ok', 'float32', ()),
 'div_floor_numbers': ('ok', 'int64', ()),
 'true_divide_numbers': ('ok', 'float32', ()),
 'floor_divide_numbers': ('ok', 'float32', ()),
 'add_numbers_out': ('ok', 'float32', ()),
 'add_none_number': ('TypeError', "add(): argument 'input' (position 1) must be Tensor, not NoneType"),
 'mul_list_number': ('TypeError', "mul(): argument 'input' (position 1) must be Tensor, not list"),
 'add_number_tensor': ('ok', 'float32', (2, 3)),
 'sub_number_tensor': ('ok', 'int64', (2, 3)),
 'pow_number_tensor': ('ok', 'float32', (2, 3)),
 'modified_input': ('RuntimeError',
                    'one of the variables needed for gradient computation has been modified by an inplace operation: '
                    '[torch.FloatTensor [3]], which is output 0 of Add, is at version 1; expected version 0 instead. '
                    'Hint: enable anomaly detection to find the operation that failed to compute its gradient, with '
                    'torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_output': ('RuntimeError',
                     'one of the variables needed for gradient computation has been modified by an inplace '
                     'operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected '
                     'version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute '
                     'its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_double_input': ('RuntimeError',
                           'one of the variables needed for gradient computation has been modified by an inplace '
                           'operation: [torch.DoubleTensor [3]], which is output 0 of Add, is at version 1; expected '
                           'version 0 instead. Hint: enable anomaly detection to find the operation that failed to '
                           'compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_half_input': ('RuntimeError',
                         'one of the variables needed for gradient computation has been modified by an inplace '
                         'operation: [torch.HalfTensor [3]], which is output 0 of Add, is at version 1; expected '
                         'version 0 instead. Hint: enable anomaly detection to find the operation that failed to '
                         'compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_bfloat16_input': ('RuntimeError',
                             'one of the variables needed for gradient computation has been modified by an inplace '
                             'operation: [CPUBFloat16Type [3]], which is output 0 of Add, is at version 1; expected '
                             'version 0 instead. Hint: enable anomaly detection to find the operation that failed to '
                             'compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_complex_input': ('RuntimeError',
                            'one of the variables needed for gradient computation has been modified by an inplace '
                            'operation: [CPUComplexFloatType [3]], which is output 0 of Add, is at version 1; '
                            'expected version 0 instead. Hint: enable anomaly detection to find the operation that '
                            'failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, '
                            'check_nan=False).'),
 'modified_custom_input': ('RuntimeError',
                           'one of the variables needed for gradient computation has been modified by an inplace '
                           'operation: [torch.FloatTensor [3]], which is output 0 of Add, is at version 1; expected '
                           'version 0 instead. Hint: enable anomaly detection to find the operation that failed to '
                           'compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_custom_output': ('RuntimeError',
                            'one of the variables needed for gradient computation has been modified by an inplace '
                            'operation: [torch.FloatTensor [3]], which is output 0 of H, is at version 1; expected '
                            'version 0 instead. Hint: enable anomaly detection to find the operation that failed to '
                            'compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_custom_second_output': ('RuntimeError',
                                   'one of the variables needed for gradient computation has been modified by an '
                                   'inplace operation: [torch.FloatTensor [3]], which is output 1 of M, is at '
                                   'version 1; expected version 0 instead. Hint: enable anomaly detection to find '
                                   'the operation that failed to compute its gradient, with '
                                   'torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_saved_self_read': ('RuntimeError',
                              'one of the variables needed for gradient computation has been modified by an inplace '
                              'operation: [torch.FloatTensor [3]], which is output 0 of Add, is at version 1; '
                              'expected version 0 instead. Hint: enable anomaly detection to find the operation that '
                              'failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, '
                              'check_nan=False).'),
 'modified_leaf': ('RuntimeError',
                   'one of the variables needed for gradient computation has been modified by an inplace operation: '
                   '[torch.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: enable anomaly '
                   'detection to find the operation that failed to compute its gradient, with '
                   'torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_through_slice': ('RuntimeError',
                            'one of the variables needed for gradient computation has been modified by an inplace '
                            'operation: [torch.FloatTensor [3]], which is output 0 of torch::autograd::CopySlices, '
                            'is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the '
                            'operation that failed to compute its gradient, with '
                            'torch.autograd.set_detect_anomaly(True, check_nan=False).'),
 'modified_under_saved_tensors_hooks': ('ok', 'float32', (3,)),
 'modified_under_anomaly_detection': ('RuntimeError',
                                      'one of the variables needed for gradient computation has been modified by an '
                                      'inplace operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at '
                                      'version 1; expected version 0 instead. Hint: the backtrace further above '
                                      'shows the operation that failed to compute its gradient. The variable in '
                                      'question was changed in there or anywhere later. Good luck!'),
 'unbind_output_modified': ('RuntimeError',
                            'Output 1 of Unbind is a view and is being modified inplace. This view is the output of '
                            'a function that returns multiple views. Such functions do not allow the output views to '
                            'be modified inplace. You should replace the inplace operation by an out-of-place one.'),
 'chunk_output_modified': ('RuntimeError',
                           'Output 0 of Split is a view and is being modified inplace. This view is the output of a '
                           'function that returns multiple views. Such functions do not allow the output views to be '
                           'modified inplace. You should replace the inplace operation by an out-of-place one.'),
 'split_sizes_output_modified': ('RuntimeError',
                                 'Output 1 of SplitWithSizes is a view and is being modified inplace. This view is '
                                 'the output of a function that returns multiple views. Such functions do not allow '
                                 'the output views to be modified inplace. You should replace the inplace operation '
                                 'by an out-of-place one.'),
 'cross_none_other': ('TypeError', "cross(): argument 'other' (position 2) must be Tensor, not NoneType"),
 'matrix_exp_list': ('TypeError', "matrix_exp(): argument 'input' (position 1) must be Tensor, not list"),
 'kron_str': ('TypeError', "kron(): argument 'other' (position 2) must be Tensor, not str"),
 'diag_tensor_diagonal': ('TypeError', "diag(): argument 'diagonal' must be int, not Tensor"),
 'chunk_tensor_chunks': ('TypeError', "chunk(): argument 'chunks' (position 1) must be int, not Tensor"),
 'expand_as_number': ('TypeError', "expand_as(): argument 'other' (position 1) must be Tensor, not int"),
 'dist_none': ('TypeError', "dist(): argument 'other' (position 1) must be Tensor, not NoneType"),
 'eq_none': ('TypeError',
             'eq() received an invalid combination of arguments - got (Tensor, NoneType), but expected one of:\n'
             ' * (Tensor input, Tensor other, *, Tensor out = None)\n'
             ' * (Tensor input, Number other, *, Tensor out = None)\n'),
 'ones_like_list': ('TypeError', "ones_like(): argument 'input' (position 1) must be Tensor, not list"),
 'numel_none': ('TypeError', "numel(): argument 'input' (position 1) must be Tensor, not NoneType"),
 'cumulative_trapezoid_number': ('TypeError',
                                 "cumulative_trapezoid(): argument 'y' (position 1) must be Tensor, not int"),
 'greater_list': ('TypeError',
                  'greater() received an invalid combination of arguments - got (Tensor, list), but expected one '
                  'of:\n'
                  ' * (Tensor input, Tensor other, *, Tensor out = None)\n'
                  ' * (Tensor input, Number other, *, Tensor out = None)\n'),
 'cov_tensor_correction': ('TypeError', "cov(): argument 'correction' must be int, not Tensor"),
 'narrow_none_input': ('TypeError',
                       'narrow() received an invalid combination of arguments - got (NoneType, int, int, int), but '
                       'expected one of:\n'
                       ' * (Tensor input, int dim, Tensor start, int length)\n'
                       "      didn't match because some of the arguments have invalid types: (!NoneType!, int, "
                       '!int!, int)\n'
                       ' * (Tensor input, int dim, int start, int length)\n'
                       "      didn't match because some of the arguments have invalid types: (!NoneType!, int, int, "
                       'int)\n'),
 'searchsorted_none': ('TypeError',
                       'searchsorted() received an invalid combination of arguments - got (NoneType, Tensor), but '
                       'expected one of:\n'
                       ' * (Tensor sorted_sequence, Tensor input, *, bool out_int32 = False, bool right = False, str '
                       'side = None, Tensor sorter = None, Tensor out = None)\n'
                       ' * (Tensor sorted_sequence, Number self, *, bool out_int32 = False, bool right = False, str '
                       'side = None, Tensor sorter = None, Tensor out = None)\n'),
 'softmax_none_input': ('TypeError', "softmax(): argument 'input' (position 1) must be Tensor, not NoneType"),
 'cauchy_tensor_sigma': ('TypeError', "cauchy_(): argument 'sigma' must be float, not Tensor"),
 'logical_not_str': ('TypeError', "logical_not(): argument 'input' (position 1) must be Tensor, not str"),
 'trace_none': ('TypeError', "trace(): argument 'input' (position 1) must be Tensor, not NoneType"),
 'copysign_none': ('TypeError',
                   'copysign() received an invalid combination of arguments - got (Tensor, NoneType), but expected '
                   'one of:\n'
                   ' * (Tensor input, Tensor other, *, Tensor out = None)\n'
                   ' * (Tensor input, Number other, *, Tensor out = None)\n'),
 'heaviside_none': ('TypeError', "heaviside(): argument 'input' (position 1) must be Tensor, not NoneType"),
 'eq_number_first': ('TypeError',
                     'eq() received an invalid combination of arguments - got (int, Tensor), but expected one of:\n'
                     ' * (Tensor input, Tensor other, *, Tensor out = None)\n'
                     ' * (Tensor input, Number other, *, Tensor out = None)\n'),
 'gt_number_first': ('TypeError',
                     'gt() received an invalid combination of arguments - got (float, Tensor), but expected one of:\n'
                     ' * (Tensor input, Tensor other, *, Tensor out = None)\n'
                     ' * (Tensor input, Number other, *, Tensor out = None)\n'),
 'where_number_condition': ('TypeError',
                            'where() received an invalid combination of arguments - got (bool, int, int), but '
                            'expected one of:\n'
                            ' * (Tensor condition)\n'
                            ' * (Tensor condition, Tensor input, Tensor other, *, Tensor out = None)\n'
                            ' * (Tensor condition, Number self, Tensor other)\n'
                            "      didn't match because some of the arguments have invalid types: (!bool!, !int!, "
                            '!int!)\n'
                            ' * (Tensor condition, Tensor input, Number other)\n'
                            "      didn't match because some of the arguments have invalid types: (!bool!, !int!, "
                            '!int!)\n'
                            ' * (Tensor condition, Number self, Number other)\n'
                            "      didn't match because some of the arguments have invalid types: (!bool!, !int!, "
                            '!int!)\n'),
 'remainder_numbers': ('TypeError',
                       'remainder() received an invalid combination of arguments - got (int, int), but expected one '
                       'of:\n'
                       ' * (Tensor input, Tensor other, *, Tensor out = None)\n'
                       ' * (Number self, Tensor other)\n'
                       "      didn't match because some of the arguments have invalid types: (!int!, !int!)\n"
                       ' * (Tensor input, Number other, *, Tensor out = None)\n'),
 'fmod_numbers': ('TypeError',
                  'fmod() received an invalid combination of arguments - got (float, int), but expected one of:\n'
                  ' * (Tensor input, Tensor other, *, Tensor out = None)\n'
                  ' * (Tensor input, Number other, *, Tensor out = None)\n'),
 'scatter_number_src': ('ok', 'float32', (2, 3)),
 'backward_twice': ('RuntimeError',
                    'Trying to backward through the graph a second time (or directly access saved tensors after they '
                    'have already been freed). Saved intermediate values of the graph are freed when you call '
                    '.backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the '
                    'graph a second time or if you need to access saved tensors after calling backward.'),
 'item_of_many': ('RuntimeError', 'a Tensor with 6 elements cannot be converted to Scalar'),
 'numpy_requiring_grad': ('RuntimeError',
                          "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."),
 'view_bad_size': ('RuntimeError', "shape '[4]' is invalid for input of size 6"),
 'index_out_of_range': ('IndexError', 'index 2 is out of bounds for dimension 0 with size 2'),
 'dim_out_of_range': ('IndexError', 'Dimension out of range (expected to be in range of [-2, 1], but got 3)'),
 'cat_mismatch': ('RuntimeError',
                  'Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor '
                  'number 1 in the list.'),
 'matmul_float_double': ('RuntimeError', 'expected m1 and m2 to have the same dtype, but got: float != double'),
 'mean_long': ('RuntimeError',
               'mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. '
               'Got: Long'),
 'softmax_long': ('NotImplementedError', '"softmax_lastdim_kernel_impl" not implemented for \'Long\''),
 'nll_loss_int_target': ('RuntimeError', 'expected target dtype to be Long or Byte, but got Int')}
