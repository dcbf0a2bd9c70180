"""PyTorch 2.13.0's results for ``_embedding_bag_cases.py`` (written by ``_embedding_bag_record.py``)."""

EXPECTED = {
    'top_0_padNone_iloFalse':
        {'grad': [[20.0, 26.0], [12.0, 16.0], [32.0, 42.0], [20.0, 26.0], [104.0, 116.0], [52.0, 58.0]],
         'outputs': [('float32', [4, 2], [[6.0, 8.0], [0.0, 0.0], [26.0, 29.0], [10.0, 13.0]],
                      'EmbeddingBagBackward0'),
                     ('int64', [0], [], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_0_padNone_iloTrue':
        {'grad': [[20.0, 26.0], [12.0, 16.0], [32.0, 42.0], [20.0, 26.0], [104.0, 116.0], [52.0, 58.0]],
         'outputs': [('float32', [4, 2], [[6.0, 8.0], [0.0, 0.0], [26.0, 29.0], [10.0, 13.0]],
                      'EmbeddingBagBackward0'),
                     ('int64', [0], [], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_0_pad2_iloFalse':
        {'grad': [[12.0, 16.0], [4.0, 6.0], [0.0, 0.0], [12.0, 16.0], [104.0, 116.0], [52.0, 58.0]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [26.0, 29.0], [6.0, 8.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_0_pad2_iloTrue':
        {'grad': [[12.0, 16.0], [4.0, 6.0], [0.0, 0.0], [12.0, 16.0], [104.0, 116.0], [52.0, 58.0]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [26.0, 29.0], [6.0, 8.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_0_pad-1_iloFalse':
        {'grad': [[20.0, 26.0], [12.0, 16.0], [32.0, 42.0], [20.0, 26.0], [64.0, 72.0], [0.0, 0.0]],
         'outputs': [('float32', [4, 2], [[6.0, 8.0], [0.0, 0.0], [16.0, 18.0], [10.0, 13.0]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_0_pad-1_iloTrue':
        {'grad': [[20.0, 26.0], [12.0, 16.0], [32.0, 42.0], [20.0, 26.0], [64.0, 72.0], [0.0, 0.0]],
         'outputs': [('float32', [4, 2], [[6.0, 8.0], [0.0, 0.0], [16.0, 18.0], [10.0, 13.0]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_1_padNone_iloFalse':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.0, 4.0], [5.222222328186035, 6.888889312744141],
                  [2.222222328186035, 2.8888890743255615], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2],
                      [[3.0, 4.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105],
                       [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 3, 3], None),
                     ('int64', [4], [2, 0, 3, 3], None)]},
    'top_1_padNone_iloTrue':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.0, 4.0], [5.222222328186035, 6.888889312744141],
                  [2.222222328186035, 2.8888890743255615], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2],
                      [[3.0, 4.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105],
                       [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 3, 3], None),
                     ('int64', [4], [2, 0, 3, 3], None)]},
    'top_1_pad2_iloFalse':
        {'grad': [[3.0, 4.0], [4.0, 6.0], [0.0, 0.0], [3.0, 4.0], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105], [3.0, 4.0]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [1, 0, 3, 2], None),
                     ('int64', [4], [1, 0, 3, 2], None)]},
    'top_1_pad2_iloTrue':
        {'grad': [[3.0, 4.0], [4.0, 6.0], [0.0, 0.0], [3.0, 4.0], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105], [3.0, 4.0]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [1, 0, 3, 2], None),
                     ('int64', [4], [1, 0, 3, 2], None)]},
    'top_1_pad-1_iloFalse':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.0, 4.0], [5.222222328186035, 6.888889312744141],
                  [2.222222328186035, 2.8888890743255615], [16.0, 18.0], [0.0, 0.0]],
         'outputs': [('float32', [4, 2],
                      [[3.0, 4.0], [0.0, 0.0], [8.0, 9.0], [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 2, 3], None),
                     ('int64', [4], [2, 0, 2, 3], None)]},
    'top_1_pad-1_iloTrue':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.0, 4.0], [5.222222328186035, 6.888889312744141],
                  [2.222222328186035, 2.8888890743255615], [16.0, 18.0], [0.0, 0.0]],
         'outputs': [('float32', [4, 2],
                      [[3.0, 4.0], [0.0, 0.0], [8.0, 9.0], [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 2, 3], None),
                     ('int64', [4], [2, 0, 2, 3], None)]},
    'top_2_padNone_iloFalse':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [8.0, 10.0], [12.0, 14.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [4, 2], [[4.0, 5.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 3, 3], None),
                     ('int64', [4, 2], [[2, 2], [0, 0], [5, 5], [3, 3]], None)]},
    'top_2_padNone_iloTrue':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [8.0, 10.0], [12.0, 14.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [4, 2], [[4.0, 5.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 3, 3], None),
                     ('int64', [4, 2], [[2, 2], [0, 0], [5, 5], [3, 3]], None)]},
    'top_2_pad2_iloFalse':
        {'grad': [[0.0, 0.0], [4.0, 6.0], [0.0, 0.0], [12.0, 14.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [1, 0, 3, 2], None),
                     ('int64', [4, 2], [[1, 1], [0, 0], [5, 5], [3, 3]], None)]},
    'top_2_pad2_iloTrue':
        {'grad': [[0.0, 0.0], [4.0, 6.0], [0.0, 0.0], [12.0, 14.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [1, 0, 3, 2], None),
                     ('int64', [4, 2], [[1, 1], [0, 0], [5, 5], [3, 3]], None)]},
    'top_2_pad-1_iloFalse':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [8.0, 10.0], [12.0, 14.0], [16.0, 18.0], [0.0, 0.0]],
         'outputs': [('float32', [4, 2], [[4.0, 5.0], [0.0, 0.0], [8.0, 9.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 2, 3], None),
                     ('int64', [4, 2], [[2, 2], [0, 0], [4, 4], [3, 3]], None)]},
    'top_2_pad-1_iloTrue':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [8.0, 10.0], [12.0, 14.0], [16.0, 18.0], [0.0, 0.0]],
         'outputs': [('float32', [4, 2], [[4.0, 5.0], [0.0, 0.0], [8.0, 9.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 2, 3], None),
                     ('int64', [4, 2], [[2, 2], [0, 0], [4, 4], [3, 3]], None)]},
    'top_0_padNone_short_last_offset':
        {'grad': [[12.0, 14.0], [12.0, 16.0], [24.0, 30.0], [12.0, 14.0], [104.0, 116.0], [52.0, 58.0]],
         'outputs': [('float32', [3, 2], [[6.0, 8.0], [0.0, 0.0], [26.0, 29.0]], 'EmbeddingBagBackward0'),
                     ('int64', [0], [], None), ('int64', [3], [0, 0, 0], None), ('int64', [3], [0, 0, 0], None)]},
    'top_0_pad2_short_last_offset':
        {'grad': [[64.0, 74.0], [4.0, 6.0], [0.0, 0.0], [64.0, 74.0], [128.0, 148.0], [64.0, 74.0]],
         'outputs': [('float32', [3, 2], [[2.0, 3.0], [0.0, 0.0], [32.0, 37.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 2, 2, 2], None), ('int64', [3], [0, 0, 0], None),
                     ('int64', [3], [0, 0, 0], None)]},
    'top_1_padNone_short_last_offset':
        {'grad': [[1.4444445371627808, 1.6111111640930176], [3.0, 4.0], [4.44444465637207, 5.611111164093018],
                  [1.4444445371627808, 1.6111111640930176], [2.8888890743255615, 3.222222328186035],
                  [1.4444445371627808, 1.6111111640930176]],
         'outputs': [('float32', [3, 2], [[3.0, 4.0], [0.0, 0.0], [4.333333492279053, 4.833333492279053]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 2, 2, 2], None), ('int64', [3], [2, 0, 6], None),
                     ('int64', [3], [2, 0, 6], None)]},
    'top_1_pad2_short_last_offset':
        {'grad': [[2.56000018119812, 2.9600000381469727], [4.0, 6.0], [0.0, 0.0],
                  [2.56000018119812, 2.9600000381469727], [5.12000036239624, 5.920000076293945],
                  [2.56000018119812, 2.9600000381469727]],
         'outputs': [('float32', [3, 2], [[2.0, 3.0], [0.0, 0.0], [6.400000095367432, 7.400000095367432]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 2, 2, 2], None), ('int64', [3], [1, 0, 5], None),
                     ('int64', [3], [1, 0, 5], None)]},
    'top_2_padNone_short_last_offset':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [8.0, 10.0], [0.0, 0.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [3, 2], [[4.0, 5.0], [0.0, 0.0], [10.0, 11.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 2, 2, 2], None), ('int64', [3], [2, 0, 6], None),
                     ('int64', [3, 2], [[2, 2], [0, 0], [5, 5]], None)]},
    'top_2_pad2_short_last_offset':
        {'grad': [[0.0, 0.0], [4.0, 6.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [3, 2], [[2.0, 3.0], [0.0, 0.0], [10.0, 11.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 2, 2, 2], None), ('int64', [3], [1, 0, 5], None),
                     ('int64', [3, 2], [[1, 1], [0, 0], [5, 5]], None)]},
    'top_sum_weights':
        {'grad': [[15.428571701049805, 20.571428298950195], [0.0, 0.0], [13.387755393981934, 17.836734771728516],
                  [11.020408630371094, 14.693878173828125], [19.102041244506836, 21.306121826171875],
                  [9.551021575927734, 10.653061866760254]],
         'outputs': [('float32', [4, 2],
                      [[0.5714285969734192, 0.7142857313156128], [0.0, 0.0], [11.142857551574707, 12.428571701049805],
                       [7.714285850524902, 10.285714149475098]],
                      'EmbeddingBagBackward0'),
                     ('int64', [0], [], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_sum_weights_pad':
        {'grad': [[8.571428298950195, 12.0], [0.0, 0.0], [0.0, 0.0], [6.122448921203613, 8.571428298950195],
                  [19.102041244506836, 21.306121826171875], [9.551021575927734, 10.653061866760254]],
         'outputs': [('float32', [4, 2],
                      [[0.0, 0.0], [0.0, 0.0], [11.142857551574707, 12.428571701049805], [4.285714149475098, 6.0]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_sum_float64':
        {'grad': [[20.0, 26.0], [12.0, 16.0], [32.0, 42.0], [20.0, 26.0], [104.0, 116.0], [52.0, 58.0]],
         'outputs': [('float64', [4, 2], [[6.0, 8.0], [0.0, 0.0], [26.0, 29.0], [10.0, 13.0]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [0, 0, 0, 0], None),
                     ('int64', [4], [0, 0, 0, 0], None)]},
    'top_max_float64':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [8.0, 10.0], [12.0, 14.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float64', [4, 2], [[4.0, 5.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 3, 3], None),
                     ('int64', [4, 2], [[2, 2], [0, 0], [5, 5], [3, 3]], None)]},
    'top_mean_float64_short_last_offset':
        {'grad': [[2.0, 2.3333332538604736], [3.0, 4.0], [5.0, 6.333333492279053], [2.0, 2.3333332538604736],
                  [4.0, 4.666666507720947], [2.0, 2.3333332538604736]],
         'outputs': [('float64', [3, 2], [[3.0, 4.0], [0.0, 0.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 2, 2, 2], None), ('int64', [3], [2, 0, 6], None),
                     ('int64', [3], [2, 0, 6], None)]},
    'top_int32':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [8.0, 10.0], [12.0, 14.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [4, 2], [[4.0, 5.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]], 'EmbeddingBagBackward0'),
                     ('int32', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int32', [4], [2, 0, 3, 3], None),
                     ('int32', [4, 2], [[2, 2], [0, 0], [5, 5], [3, 3]], None)]},
    'top_int32_int64':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.0, 4.0], [5.222222328186035, 6.888889312744141],
                  [2.222222328186035, 2.8888890743255615], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2],
                      [[3.0, 4.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105],
                       [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 3, 3], None),
                     ('int64', [4], [2, 0, 3, 3], None)]},
    'top_int16_indices':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.0, 4.0], [5.222222328186035, 6.888889312744141],
                  [2.222222328186035, 2.8888890743255615], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2],
                      [[3.0, 4.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105],
                       [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0'),
                     ('int64', [8], [0, 0, 2, 2, 2, 3, 3, 3], None), ('int64', [4], [2, 0, 3, 3], None),
                     ('int64', [4], [2, 0, 3, 3], None)]},
    'top_ties_first':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
         'outputs': [('float32', [2, 2], [[1.0, 2.0], [3.0, 2.0]], 'EmbeddingBagBackward0'),
                     ('int64', [5], [0, 0, 0, 1, 1], None), ('int64', [2], [3, 2], None),
                     ('int64', [2, 2], [[0, 0], [2, 0]], None)]},
    'top_empty_input':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
         'outputs': [('float32', [2, 2], [[0.0, 0.0], [0.0, 0.0]], 'EmbeddingBagBackward0'), ('int64', [0], [], None),
                     ('int64', [2], [0, 0], None), ('int64', [2, 2], [[0, 0], [0, 0]], None)]},
    'top_bad_mode':
        'RuntimeError: `mode` must be sum, mean, or max.',
    'top_weights_mean':
        "RuntimeError: embedding_bag: per_sample_weights only supported with mode='sum'",
    'top_weights_float64':
        ("RuntimeError: Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
         "'per_sample_weights'; but type torch.FloatTensor does not equal torch.DoubleTensor (while checking "
         'arguments for embedding_bag)'),
    'top_weights_numel':
        ('RuntimeError: Expected per_sample_weights.value().numel() == indices.numel() to be true, but got false.  '
         '(Could this error message be improved?  If so, please report an enhancement request to PyTorch.)'),
    'top_long_weight':
        ("RuntimeError: Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, "
         'BFloat16, Float, Double; but got torch.LongTensor instead (while checking arguments for embedding_bag)'),
    'top_float_offsets':
        ("RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
         'Int; but got torch.FloatTensor instead (while checking arguments for embedding_bag)'),
    'top_2d_offsets':
        'RuntimeError: offsets has to be a 1D Tensor, but got Tensor of dimension 2',
    'top_1d_weight':
        'RuntimeError: weight has to be a 2D Tensor, but got Tensor of dimension 1',
    'top_2d_indices':
        {'grad': 'IndexError: index_select(): Index is supposed to be a vector',
         'outputs': [('float32', [1, 2], [[12.0, 15.0]], 'EmbeddingBagBackward0'), ('int64', [0], [], None),
                     ('int64', [1], [0], None), ('int64', [1], [0], None)]},
    'top_padding_too_large':
        'RuntimeError: padding_idx must be within the number of embeddings, -6 through 5, but got 6',
    'top_padding_too_small':
        'RuntimeError: padding_idx must be within the number of embeddings, -6 through 5, but got -7',
    'top_first_offset':
        ('RuntimeError: offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from '
         'position 0. However, got 1'),
    'top_last_offset':
        "RuntimeError: offsets[-1] can not be greater than input's length 8 but got offsets[-1] of 9",
    'top_decreasing_offsets':
        ('RuntimeError: Expected i < index_size to be true, but got false.  (Could this error message be improved?  '
         'If so, please report an enhancement request to PyTorch.)'),
    'top_out_of_range_0_padNone_first_bag':
        'RuntimeError: Index 1 of input takes value 9 which is not in the valid range [0, 6)',
    'top_out_of_range_0_padNone_last_bag':
        ('RuntimeError: Expected i < index_size to be true, but got false.  (Could this error message be improved?  '
         'If so, please report an enhancement request to PyTorch.)'),
    'top_out_of_range_0_padNone_one_bag':
        'RuntimeError: Index 3 of input takes value -1 which is not in the valid range [0, 6)',
    'top_out_of_range_0_pad0_first_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'top_out_of_range_0_pad0_last_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'top_out_of_range_0_pad0_one_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be -1',
    'top_out_of_range_1_padNone_first_bag':
        'RuntimeError: Index 1 of input takes value 9 which is not in the valid range [0, 6)',
    'top_out_of_range_1_padNone_last_bag':
        ('RuntimeError: Expected i < index_size to be true, but got false.  (Could this error message be improved?  '
         'If so, please report an enhancement request to PyTorch.)'),
    'top_out_of_range_1_padNone_one_bag':
        'RuntimeError: Index 3 of input takes value -1 which is not in the valid range [0, 6)',
    'top_out_of_range_1_pad0_first_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'top_out_of_range_1_pad0_last_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'top_out_of_range_1_pad0_one_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be -1',
    'top_out_of_range_2_padNone_first_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'top_out_of_range_2_padNone_last_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'top_out_of_range_2_padNone_one_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be -1',
    'top_out_of_range_2_pad0_first_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'top_out_of_range_2_pad0_last_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'top_out_of_range_2_pad0_one_bag':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be -1',
    'top_out_of_range_float64':
        'RuntimeError: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 9',
    'F_sum':
        {'grad': [[20.0, 26.0], [12.0, 16.0], [32.0, 42.0], [20.0, 26.0], [104.0, 116.0], [52.0, 58.0]],
         'outputs': [('float32', [4, 2], [[6.0, 8.0], [0.0, 0.0], [26.0, 29.0], [10.0, 13.0]],
                      'EmbeddingBagBackward0')]},
    'F_mean':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.0, 4.0], [5.222222328186035, 6.888889312744141],
                  [2.222222328186035, 2.8888890743255615], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2],
                      [[3.0, 4.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105],
                       [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0')]},
    'F_max':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [8.0, 10.0], [12.0, 14.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [4, 2], [[4.0, 5.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]],
                      'EmbeddingBagBackward0')]},
    'F_sum_pad':
        {'grad': [[12.0, 16.0], [4.0, 6.0], [0.0, 0.0], [12.0, 16.0], [104.0, 116.0], [52.0, 58.0]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [26.0, 29.0], [6.0, 8.0]],
                      'EmbeddingBagBackward0')]},
    'F_mean_pad':
        {'grad': [[3.0, 4.0], [4.0, 6.0], [0.0, 0.0], [3.0, 4.0], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105], [3.0, 4.0]],
                      'EmbeddingBagBackward0')]},
    'F_max_pad':
        {'grad': [[0.0, 0.0], [4.0, 6.0], [0.0, 0.0], [12.0, 14.0], [0.0, 0.0], [20.0, 22.0]],
         'outputs': [('float32', [4, 2], [[2.0, 3.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]],
                      'EmbeddingBagBackward0')]},
    'F_sum_2d':
        {'grad': [[36.0, 44.0], [48.0, 56.0], [84.0, 100.0], [36.0, 44.0], [84.0, 100.0], [48.0, 56.0]],
         'outputs': [('float32', [2, 2], [[24.0, 28.0], [18.0, 22.0]], 'EmbeddingBagBackward0')]},
    'F_mean_2d':
        {'grad': [[2.25, 2.75], [3.0, 3.5], [5.25, 6.25], [2.25, 2.75], [5.25, 6.25], [3.0, 3.5]],
         'outputs': [('float32', [2, 2], [[6.0, 7.0], [4.5, 5.5]], 'EmbeddingBagBackward0')]},
    'F_max_2d':
        {'grad': [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [16.0, 18.0], [20.0, 22.0]],
         'outputs': [('float32', [2, 2], [[10.0, 11.0], [8.0, 9.0]], 'EmbeddingBagBackward0')]},
    'F_mean_pad_negative':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.555555820465088, 4.222222328186035],
                  [5.777778148651123, 7.111111640930176], [2.222222328186035, 2.8888890743255615], [0.0, 0.0],
                  [3.555555820465088, 4.222222328186035]],
         'outputs': [('float32', [2, 2],
                      [[5.333333492279053, 6.333333492279053], [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0')]},
    'F_mean_ilo':
        {'grad': [[2.222222328186035, 2.8888890743255615], [3.0, 4.0], [5.222222328186035, 6.888889312744141],
                  [2.222222328186035, 2.8888890743255615], [11.555556297302246, 12.88888931274414],
                  [5.777778148651123, 6.44444465637207]],
         'outputs': [('float32', [4, 2],
                      [[3.0, 4.0], [0.0, 0.0], [8.666666984558105, 9.666666984558105],
                       [3.3333332538604736, 4.333333492279053]],
                      'EmbeddingBagBackward0')]},
    'F_mean_short_last_offset':
        {'grad': [[1.4444445371627808, 1.6111111640930176], [3.0, 4.0], [4.44444465637207, 5.611111164093018],
                  [1.4444445371627808, 1.6111111640930176], [2.8888890743255615, 3.222222328186035],
                  [1.4444445371627808, 1.6111111640930176]],
         'outputs': [('float32', [3, 2], [[3.0, 4.0], [0.0, 0.0], [4.333333492279053, 4.833333492279053]],
                      'EmbeddingBagBackward0')]},
    'F_weights':
        {'grad': [[15.428571701049805, 20.571428298950195], [0.0, 0.0], [13.387755393981934, 17.836734771728516],
                  [11.020408630371094, 14.693878173828125], [19.102041244506836, 21.306121826171875],
                  [9.551021575927734, 10.653061866760254]],
         'outputs': [('float32', [4, 2],
                      [[0.5714285969734192, 0.7142857313156128], [0.0, 0.0], [11.142857551574707, 12.428571701049805],
                       [7.714285850524902, 10.285714149475098]],
                      'EmbeddingBagBackward0')]},
    'F_weights_pad':
        {'grad': [[15.428571701049805, 20.571428298950195], [0.0, 0.0], [13.387755393981934, 17.836734771728516],
                  [11.020408630371094, 14.693878173828125], [0.0, 0.0], [3.6734700202941895, 4.040816783905029]],
         'outputs': [('float32', [4, 2],
                      [[0.5714285969734192, 0.7142857313156128], [0.0, 0.0], [4.285714626312256, 4.714285850524902],
                       [7.714285850524902, 10.285714149475098]],
                      'EmbeddingBagBackward0')]},
    'F_weights_2d':
        {'grad': [[24.571428298950195, 30.857141494750977], [0.0, 0.0], [23.102041244506836, 28.73469352722168],
                  [17.551021575927734, 22.040815353393555], [18.122447967529297, 22.20408058166504],
                  [6.12244987487793, 6.857143402099609]],
         'outputs': [('float32', [2, 2], [[7.142857551574707, 8.0], [12.285714149475098, 15.428570747375488]],
                      'EmbeddingBagBackward0')]},
    'F_scale_grad_by_freq':
        {'grad': [[0.5, 1.5], [1.25, 1.75], [1.25, 1.75], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
         'outputs': [('float32', [3, 2], [[0.0, 1.0], [3.0, 4.0], [1.5, 2.5]], 'EmbeddingBagBackward0')]},
    'F_empty_offsets':
        ("RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
         'Int; but got torch.FloatTensor instead (while checking arguments for embedding_bag)'),
    'F_weights_mean':
        ('NotImplementedError: embedding_bag: per_sample_weights was not None. per_sample_weights is only supported '
         "for mode='sum' (got mode='mean'). Please open a feature request on GitHub."),
    'F_weights_shape':
        ('ValueError: embedding_bag: If per_sample_weights (torch.Size([7])) is not None, then it must have the same '
         'shape as the input (torch.Size([8]))'),
    'F_bad_mode':
        'ValueError: mode has to be one of sum, mean or max',
    'F_max_scale_grad_by_freq':
        'ValueError: max mode does not support scaling the gradient by the frequency',
    'F_max_sparse':
        'ValueError: max mode does not support sparse weights',
    'F_float_indices':
        ("RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
         'Int; but got torch.FloatTensor instead (while checking arguments for embedding_bag)'),
    'F_1d_weight':
        'ValueError: weight has to be a 2D Tensor, but got Tensor of dimension 1',
    'F_2d_offsets':
        'ValueError: offsets has to be a 1D Tensor',
    'F_no_offsets':
        'ValueError: offsets has to be a 1D Tensor but got None',
    'F_3d_input':
        'ValueError: input has to be 1D or 2D Tensor, but got Tensor of dimension 3',
    'F_out_of_range':
        'RuntimeError: Index 1 of input takes value 9 which is not in the valid range [0, 6)',
}
