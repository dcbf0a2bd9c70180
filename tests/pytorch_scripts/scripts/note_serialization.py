"""pytorch.org's "Serialization semantics" note: tensors saved together keep their view relationships,
saving a small view saves its whole storage (clone() first), state_dict save/load of a module with a
BatchNorm, torch.load(weights_only=True) refusing a pickled module with its UnpicklingError text,
torch.serialization.safe_globals / add_safe_globals / get_safe_globals, and serializing to a buffer."""
import io
import pickle

import torch

numbers = torch.arange(1, 10)
evens = numbers[1::2]
buf = io.BytesIO()
torch.save([numbers, evens], buf)
buf.seek(0)
loaded_numbers, loaded_evens = torch.load(buf)
loaded_evens *= 2
print(loaded_numbers)
print(loaded_evens.storage_offset(), loaded_evens.stride())

large = torch.arange(1, 1000)
small = large[0:5]
b1, b2 = io.BytesIO(), io.BytesIO()
torch.save(small, b1)
torch.save(small.clone(), b2)
print(len(b1.getvalue()) > len(b2.getvalue()) + 3000)
b1.seek(0)
loaded_small = torch.load(b1)
print(loaded_small, loaded_small.untyped_storage().size())
b2.seek(0)
print(torch.load(b2).untyped_storage().size())

bn = torch.nn.BatchNorm1d(3, track_running_stats=True)
print(list(bn.state_dict().keys()))
buf = io.BytesIO()
torch.save(bn.state_dict(), buf)
buf.seek(0)
bn_state_dict = torch.load(buf)
new_bn = torch.nn.BatchNorm1d(3, track_running_stats=True)
print(new_bn.load_state_dict(bn_state_dict))
print(new_bn.num_batches_tracked, new_bn.num_batches_tracked.dtype)

buf = io.BytesIO()
torch.save(bn, buf)
buf.seek(0)
try:
    torch.load(buf, weights_only=True)
except pickle.UnpicklingError as e:
    print(type(e).__name__, str(e).splitlines()[0])
buf.seek(0)
print(torch.load(buf, weights_only=False))


class Config:
    def __init__(self, lr):
        self.lr = lr


buf = io.BytesIO()
torch.save({"config": Config(0.1), "w": torch.ones(2)}, buf)
buf.seek(0)
try:
    torch.load(buf, weights_only=True)
except pickle.UnpicklingError:
    print("Config is not an allowed global")
buf.seek(0)
with torch.serialization.safe_globals([Config]):
    obj = torch.load(buf, weights_only=True)
print(obj["config"].lr, obj["w"])
print(Config in torch.serialization.get_safe_globals())
torch.serialization.add_safe_globals([Config])
print(Config in torch.serialization.get_safe_globals())
torch.serialization.clear_safe_globals()
print(torch.serialization.get_safe_globals())

buf = io.BytesIO()
torch.save({"a": torch.tensor([1.5, 2.5], dtype=torch.float16), "n": 3, "t": (torch.zeros(1, dtype=torch.int8),)}, buf)
buf.seek(0)
state = torch.load(buf, weights_only=True)
print(state, state["a"].dtype)
x = torch.arange(6.0).view(2, 3).t()
buf = io.BytesIO()
torch.save(x, buf)
buf.seek(0)
y = torch.load(buf)
print(y.stride(), y.is_contiguous(), torch.equal(x, y))
