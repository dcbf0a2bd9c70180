import random
import numpy as np
import torch
import torch.backends.cudnn as cudnn

seed = 42
random.seed(seed)
np.random.seed(seed)
torch.manual_seed(seed)
torch.cuda.manual_seed_all(seed)
cudnn.benchmark = False
cudnn.deterministic = True
torch.backends.cudnn.enabled = True
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)
print(torch.backends.mps.is_available(), torch.backends.mps.is_built())
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
print(torch.cuda.is_available(), torch.cuda.device_count())
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, device.type, device.index, str(device), repr(device))
print(torch.device("cpu") == torch.device("cpu"), torch.device("cuda:1").index, repr(torch.device("cuda", 0)))
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.34567]))
torch.set_printoptions(precision=4)
torch.set_printoptions(profile="default")
print(torch.tensor([1.23456789, 1e-5]))
print(torch.tensor([1e10, 1.0]), torch.tensor([0.1, 100.0, 1000.0]), torch.tensor([1, -2]), torch.tensor([[True, False]]))
print(torch.tensor([1.5, 2.5], dtype=torch.float64), torch.tensor([1.0], dtype=torch.float16), torch.tensor(2.0, requires_grad=True))
print(torch.arange(2000.0))
print(torch.finfo(torch.float32))
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float16).max, torch.finfo().tiny, torch.finfo(torch.float64).bits)
print(torch.iinfo(torch.int64).max, torch.iinfo(torch.uint8), torch.iinfo(torch.int32).min)
print(torch.get_default_dtype(), torch.float is torch.float32, torch.double, torch.long, torch.int, torch.half, torch.bool)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.0]).dtype, torch.zeros(1).dtype, torch.arange(3.0).dtype)
torch.set_default_dtype(torch.float32)
print(torch.is_tensor(torch.zeros(1)), torch.is_tensor([1]), torch.numel(torch.zeros(2, 3)), torch.is_floating_point(torch.zeros(1)))
print(torch.get_num_threads() > 0, torch.__version__ is not None, isinstance(torch.Tensor([1, 2]), torch.Tensor), torch.Tensor([1, 2]).dtype)
print(torch.FloatTensor([1, 2]).dtype, torch.LongTensor([1, 2]).dtype, torch.Tensor(2, 3).shape)
print(torch.empty(2, 3).dtype, torch.tensor([1, 2]).float().type(), torch.zeros(2).type(torch.LongTensor).dtype)
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False)
x = torch.zeros(2, 3)
print(x.is_cuda, x.device.type, x.cpu().device, x.to("cpu").device, x.to(device).device, x.get_device())
print(torch.equal(torch.ones(2), torch.ones(2)), torch.equal(torch.ones(2), torch.ones(3)))
torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
try:
    torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]))
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])
print(torch.promote_types(torch.int32, torch.float32), torch.result_type(torch.tensor([1]), 1.0))
print(torch.can_cast(torch.float32, torch.int32), torch.pi if hasattr(torch, "pi") else None, torch.inf, torch.nan)
