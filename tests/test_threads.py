"""``tinyframe.set_num_threads`` / ``get_num_threads`` resize NumPy's BLAS pool at run time."""
from __future__ import annotations

import pytest

import tinyframe

threadpoolctl = pytest.importorskip("threadpoolctl")


@pytest.fixture
def restore_threads():
    before = threadpoolctl.threadpool_info()
    yield
    for pool in before:
        threadpoolctl.threadpool_limits(limits=pool["num_threads"], user_api=pool["user_api"])
    tinyframe.threads._known_count = None  # queried afresh, as the pools are back behind its back


def test_set_num_threads_sizes_the_blas_pool(restore_threads):
    tinyframe.set_num_threads(1)
    assert tinyframe.get_num_threads() == 1
    assert all(pool["num_threads"] == 1 for pool in threadpoolctl.threadpool_info())


@pytest.mark.parametrize(("value", "message"), [(0, "expects a positive integer"), (-2, "expects a positive integer"),
                                                (1.5, "expects an int, but got float")])
def test_set_num_threads_refuses_what_pytorch_refuses(value, message):
    with pytest.raises(RuntimeError, match=message):
        tinyframe.set_num_threads(value)


def test_without_threadpoolctl_set_num_threads_warns_and_changes_nothing(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "threadpoolctl", None)  # import now fails, as where it is missing
    with pytest.warns(RuntimeWarning, match="changed nothing: threadpoolctl is not installed"):
        tinyframe.set_num_threads(1)
    assert tinyframe.get_num_threads() >= 1


def test_known_num_threads_follows_set_num_threads(restore_threads):
    from tinyframe.threads import known_num_threads
    tinyframe.set_num_threads(2)
    assert known_num_threads() == 2
    tinyframe.set_num_threads(1)
    assert known_num_threads() == 1
