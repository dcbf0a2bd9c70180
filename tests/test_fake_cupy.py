"""The CuPy stand-in of tests/fake_cupy is as strict as CuPy where a NumPy habit would hide a GPU bug."""
from __future__ import annotations

import numpy as np
import pytest

from .fake_cupy import IMPLICIT_CONVERSION, MODULES, TRANSFERS
from .fake_cupy._names import NAMES

cupy, cupyx = MODULES["cupy"], MODULES["cupyx"]


@pytest.fixture(autouse=True)
def _no_transfers_yet() -> None:
    TRANSFERS.reset()


def test_implicit_conversion_to_numpy_is_cupys_type_error() -> None:
    a = cupy.ones(3)
    with pytest.raises(TypeError) as raised:
        np.asarray(a)
    assert str(raised.value) == IMPLICIT_CONVERSION
    assert IMPLICIT_CONVERSION == ("Implicit conversion to a NumPy array is not allowed. "
                                   "Please use `.get()` to construct a NumPy array explicitly.")


def test_numpy_array_in_an_op_is_a_type_error_either_way_round() -> None:
    for op in (lambda: cupy.ones(3) + np.ones(3), lambda: np.ones(3) * cupy.ones(3),
               lambda: cupy.where(np.ones(3, dtype=bool), cupy.ones(3), 0.0)):
        with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
            op()


def test_float_of_a_non_scalar_is_a_type_error_and_of_a_scalar_a_counted_copy() -> None:
    with pytest.raises(TypeError):
        float(cupy.ones(3))
    TRANSFERS.reset()
    assert float(cupy.ones(3).sum()) == 3.0 and TRANSFERS.count == 1


def test_explicit_copies_work_and_are_counted() -> None:
    a = cupy.arange(3)
    assert a.get().tolist() == [0, 1, 2] and cupy.asnumpy(a).tolist() == [0, 1, 2] and a[1].item() == 1
    assert TRANSFERS.reasons == ["get", "get", "item"]


def test_reductions_and_integer_indexing_stay_on_the_device_as_0d_arrays() -> None:
    a = cupy.arange(6.0).reshape(2, 3)
    for value in (a.sum(), a.max(), a[1, 2], np.mean(a), cupy.argmax(a)):
        assert isinstance(value, cupy.ndarray) and value.ndim == 0
    assert TRANSFERS.count == 0


def test_only_cupys_names_exist() -> None:
    with pytest.raises(AttributeError, match="no attribute 'errstate'"):
        cupy.errstate  # noqa: B018 -- NumPy has it, CuPy does not
    with pytest.raises(TypeError, match="no implementation found for 'numpy.insert'"):
        np.insert(cupy.ones(3), 0, 1.0)  # dispatched to CuPy, which has no insert
    with pytest.raises(AttributeError, match="no attribute 'itemset'"):
        cupy.ones(3).itemset  # noqa: B018
    for owner in ("cupy", "cupy.linalg", "cupy.random", "cupyx"):
        public = {name for name in vars(MODULES[owner]) if not name.startswith("_")}
        assert public <= set(NAMES[owner]) | {"cuda"}, owner


def test_scatter_add_accumulates_repeats_and_takes_cupys_dtypes_only() -> None:
    a = cupy.zeros(3, dtype=np.float32)
    cupyx.scatter_add(a, cupy.asarray([0, 0, 2]), cupy.ones(3, dtype=np.float32))
    assert a.get().tolist() == [2.0, 0.0, 1.0]
    with pytest.raises(TypeError, match="scatter_add only supports"):
        cupyx.scatter_add(cupy.zeros(3, dtype=np.int64), cupy.asarray([0]), 1)


def test_as_strided_has_cupys_signature() -> None:
    a = cupy.arange(4.0)
    view = cupy.lib.stride_tricks.as_strided(a, (3, 2), (8, 8))
    assert view.get().tolist() == [[0.0, 1.0], [1.0, 2.0], [2.0, 3.0]]
    with pytest.raises(TypeError):
        cupy.lib.stride_tricks.as_strided(a, (3, 2), (8, 8), writeable=False)


def test_random_state_takes_a_dtype_and_gives_device_arrays() -> None:
    sample = cupy.random.RandomState(0).standard_normal((2, 3), dtype=np.float32)
    assert isinstance(sample, cupy.ndarray) and sample.dtype == np.float32 and sample.shape == (2, 3)


def test_results_sized_by_their_values_count_as_a_wait_for_the_gpu() -> None:
    a = cupy.arange(4.0)
    a[a > 1]  # noqa: B018
    cupy.nonzero(a)
    a.nonzero()
    assert TRANSFERS.reasons == ["boolean index", "nonzero", "nonzero"]


def test_dtypes_cupy_has_no_arrays_of_are_refused() -> None:
    for host in (np.array(["a"]), np.array([None], dtype=object)):
        with pytest.raises(ValueError, match="Unsupported dtype"):
            cupy.asarray(host)


def test_diagonal_is_a_writable_view_as_in_cupy() -> None:
    a = cupy.zeros((2, 3))
    cupy.diagonal(a)[...] = 1.0
    a.diagonal(1)[...] += 2.0
    assert a.get().tolist() == [[1.0, 2.0, 0.0], [0.0, 1.0, 2.0]]


def test_linalg_results_are_plain_tuples_of_device_arrays() -> None:
    u, s, vh = result = cupy.linalg.svd(cupy.eye(2), full_matrices=False)
    assert type(result) is tuple and all(isinstance(part, cupy.ndarray) for part in (u, s, vh))
    assert all(isinstance(part, cupy.ndarray) for part in cupy.linalg.eigh(cupy.eye(2)))


def test_dlpack_exchange_shares_device_memory_and_refuses_host_memory() -> None:
    a = cupy.arange(3.0)
    assert a.__dlpack_device__() == (2, 0)
    shared = cupy.from_dlpack(a)
    shared[0] = 5.0
    assert a.get().tolist() == [5.0, 1.0, 2.0]
    with pytest.raises(RuntimeError, match="unsupported DLPack device type 1"):
        cupy.from_dlpack(np.arange(3.0))


def test_special_functions_stay_on_the_device_in_the_input_dtype() -> None:
    special = MODULES["cupyx.scipy.special"]
    x = cupy.asarray([0.5, 2.0], dtype=np.float32)
    for result in (special.gammaln(x), special.digamma(x), special.polygamma(1, x), special.erfinv(x * 0.5)):
        assert isinstance(result, cupy.ndarray) and result.dtype == np.float32
    np.testing.assert_allclose(special.gammaln(x).get(), [0.5723649, 0.0], atol=1e-6)
    np.testing.assert_allclose(special.erfinv(cupy.asarray([0.5])).get(), [0.4769362762], rtol=1e-9)
