"""Mixed-dtype idioms and type promotion as they trip people up in public code: int tensor / int
(true division to float), // and % on ints, integer + float Python scalar, int tensor + float tensor,
uint8 wrap-around, bool arithmetic and sum, torch.result_type / promote_types / can_cast,
type() strings and .type(torch.DoubleTensor), .long()/.half()/.bfloat16() round trips, float64
numpy arrays through from_numpy vs torch.tensor, default dtype changes, in-place ops that cannot
cast ("result type Float can't be cast to ... Long"), comparisons giving bool, torch.where with
mixed operands, mean of an int tensor (error) and the dtype= argument of sum/mean/cumsum/softmax."""
import numpy as np
import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([1.5, 2.5, 3.5])
print((i / 2).dtype, (i / 2).tolist(), (i // 2).tolist(), (i % 2).tolist(), (-i // 2).tolist())
print((i + 1.5).dtype, (i * 2).dtype, (i + f).dtype, (i * True).dtype, (f + torch.tensor(1, dtype=torch.float64)).dtype)
print((f + torch.tensor([1.0], dtype=torch.float64)).dtype, (torch.tensor(2.0, dtype=torch.float64) * f).dtype)
u = torch.tensor([250, 10], dtype=torch.uint8)
print((u + 10).tolist(), (u - 20).tolist(), (u + 10).dtype, (u * 1.0).dtype, (u + torch.tensor([1], dtype=torch.int8)).dtype)
b = torch.tensor([True, False, True])
print(b.sum(), b.sum().dtype, (b + b).dtype, (b * 2).tolist(), b.float().mean().item(), (~b).tolist(), (b & ~b).any())
print(torch.result_type(i, 1.0), torch.result_type(i, f), torch.result_type(torch.tensor(1.), torch.tensor([1], dtype=torch.int64)))
print(torch.promote_types(torch.int32, torch.float16), torch.promote_types(torch.uint8, torch.int8),
      torch.promote_types(torch.bfloat16, torch.float16), torch.can_cast(torch.float32, torch.int32),
      torch.can_cast(torch.int32, torch.float32))
print(i.type(), f.type(), f.type(torch.DoubleTensor).dtype, f.type(torch.int32).tolist(), i.type("torch.FloatTensor").dtype)
h = f.half()
print(h, h.dtype, h.float().dtype, torch.tensor([1 / 3]).bfloat16().item(), torch.tensor([1 / 3]).half().item())
print(f.long(), f.int().dtype, torch.tensor([-1.7, 1.7]).long().tolist(), f.to(torch.bool).tolist())
a = np.array([1.0, 2.0])
print(torch.from_numpy(a).dtype, torch.tensor(a).dtype, torch.as_tensor(a, dtype=torch.float32).dtype,
      torch.tensor([1, 2]).numpy().dtype, torch.tensor(np.int32(3)).dtype, torch.tensor(np.float32(1.5)).dtype)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.0]).dtype, torch.zeros(1).dtype, torch.tensor([1]).dtype, torch.arange(3.).dtype, (i / 2).dtype)
torch.set_default_dtype(torch.float32)
try:
    i += 1.5
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    b.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
i2 = torch.tensor([1, 2, 3])
i2 *= 2
f2 = f.clone()
f2 += i
print(i2.tolist(), f2.tolist(), f2.dtype)
print((i > 1).dtype, (f == i).tolist(), (i == 2.0).tolist(), torch.eq(i, torch.tensor([1.0, 0, 3])).tolist())
print(torch.where(i > 1, i, 0.5).dtype, torch.where(b, f, i).dtype, torch.where(b, 1, 0).dtype, torch.where(b, 1.0, 0).dtype)
try:
    i.mean()
except RuntimeError as e:
    print("RuntimeError:", e)
print(i.mean(dtype=torch.float32), i.sum(dtype=torch.float64), i.cumsum(0, dtype=torch.float32),
      torch.softmax(i, 0, dtype=torch.float64).dtype, i.float().softmax(0).dtype)
print(i.prod().dtype, torch.tensor([1, 2], dtype=torch.int32).sum().dtype, torch.tensor([1, 2], dtype=torch.int8).cumsum(0).dtype)
print(torch.tensor([3, 5]).pow(2).dtype, torch.tensor([3, 5]) ** 0.5, torch.tensor([2]) ** -1 if False else None)
try:
    torch.tensor([2]) ** -1
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor([4, 9]).sqrt().dtype, torch.tensor([1, 2]).exp().dtype, torch.tensor([True]).sin().dtype,
      torch.tensor([1, 2]).abs().dtype, torch.tensor([-3]).sign().dtype, torch.tensor([7]).div(2, rounding_mode="floor").dtype)
print(torch.tensor([1.5, 2.5, -0.5]).round().tolist(), torch.tensor([5, 7]).float().div(2).tolist(),
      torch.tensor([5, -7]).div(2, rounding_mode="trunc").tolist(), torch.tensor([5, -7]).fmod(3).tolist(),
      torch.tensor([5, -7]).remainder(3).tolist())
print(torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).eps, torch.iinfo(torch.int8).min,
      torch.tensor([70000.0]).half().item(), torch.tensor([300]).to(torch.uint8).item())
