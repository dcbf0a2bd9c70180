"""Numerical-stability recipes from blog posts and Stack Overflow answers, checked value by value:
the log-sum-exp trick vs torch.logsumexp (with -inf rows), log1p / expm1 near zero, logaddexp,
xlogy and special.xlog1py at 0, stable sigmoid / softplus / BCE-with-logits, log_softmax vs
log(softmax), the softmax of large logits, float16 / bfloat16 overflow and underflow with
torch.finfo, Kahan summation vs naive float32 accumulation, nextafter / eps spacing, the
variance of large-offset data (two-pass vs naive), and gradients of sqrt / norm at zero."""
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)

x = torch.tensor([[1000.0, 1000.5, 999.0], [-1000.0, -999.0, -1001.0], [0.0, float("-inf"), 1.0],
                  [float("-inf"), float("-inf"), float("-inf")]])
naive = torch.log(torch.exp(x).sum(dim=1))
m = x.max(dim=1, keepdim=True).values
m_safe = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
trick = (m_safe + torch.log(torch.exp(x - m_safe).sum(dim=1, keepdim=True))).squeeze(1)
print("naive", naive.tolist())
print("trick", trick.tolist())
print("logsumexp", torch.logsumexp(x, dim=1).tolist())
print("softmax rows", torch.softmax(x, dim=1).round(decimals=4).tolist())
print("log_softmax", F.log_softmax(x[:3], dim=1).round(decimals=4).tolist())
print("log(softmax)", torch.log(torch.softmax(x[:3], dim=1)).round(decimals=4).tolist())

small = torch.tensor([1e-10, 1e-7, 1e-4, 0.5], dtype=torch.float32)
print("log(1+x)", torch.log(1 + small).tolist())
print("log1p", torch.log1p(small).tolist())
print("exp-1", (torch.exp(small) - 1).tolist())
print("expm1", torch.expm1(small).tolist())
print("logaddexp", torch.logaddexp(torch.tensor([-1e4, 0.0, 1e4]), torch.tensor([-1e4, -1e4, 1e4 + 1])).tolist())
print("logaddexp2", torch.logaddexp2(torch.tensor([10.0, -200.0]), torch.tensor([10.0, -201.0])).tolist())
print("xlogy", torch.xlogy(torch.tensor([0.0, 0.0, 2.0]), torch.tensor([0.0, float("nan"), 3.0])).tolist())
print("xlog1py", torch.special.xlog1py(torch.tensor([0.0, 1.0]), torch.tensor([-1.0, 1e-8])).tolist())
print("0 * log 0", (torch.tensor(0.0) * torch.log(torch.tensor(0.0))).item())

z = torch.tensor([-100.0, -20.0, 0.0, 20.0, 100.0])
print("sigmoid", torch.sigmoid(z).tolist())
print("1/(1+exp(-z))", (1 / (1 + torch.exp(-z))).tolist())
print("logsigmoid", F.logsigmoid(z).tolist())
print("log(sigmoid)", torch.log(torch.sigmoid(z)).tolist())
print("softplus", F.softplus(z).tolist(), F.softplus(z, beta=2, threshold=5).tolist())
print("log(1+exp)", torch.log(1 + torch.exp(z)).tolist())
target = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0])
print("bce_with_logits", F.binary_cross_entropy_with_logits(z, target, reduction="none").tolist())
print("bce(sigmoid)", F.binary_cross_entropy(torch.sigmoid(z), target, reduction="none").tolist())
manual = torch.clamp(z, min=0) - z * target + torch.log1p(torch.exp(-z.abs()))
print("manual stable", manual.tolist())

for dt in (torch.float16, torch.bfloat16, torch.float32):
    fi = torch.finfo(dt)
    print(dt, "max", fi.max, "tiny", fi.tiny, "eps", fi.eps, "resolution", fi.resolution, "bits", fi.bits)
h = torch.tensor([60000.0, 70000.0, 1e-8, 3e-5], dtype=torch.float16)
print("float16", h.tolist(), torch.isinf(h).tolist(), (h * 2).tolist())
print("float16 exp", torch.exp(torch.tensor([10.0, 12.0], dtype=torch.float16)).tolist())
bf = torch.tensor([1.0 + 2 ** -8, 3e38, 1e-40], dtype=torch.bfloat16)
print("bfloat16", bf.tolist(), bf.float().tolist())
print("half matmul acc", (torch.ones(1, 4096, dtype=torch.float16) @ torch.ones(4096, 1, dtype=torch.float16)).item(),
      torch.ones(4096, dtype=torch.float16).sum().item(), torch.ones(4096, dtype=torch.float16).cumsum(0)[-1].item())
print("iinfo", torch.iinfo(torch.int32).max, torch.iinfo(torch.uint8), torch.tensor([2 ** 31 - 1], dtype=torch.int32) + 1)

vals = torch.full((100000,), 0.1, dtype=torch.float32)
naive_sum = torch.tensor(0.0)
for chunk in vals.split(10000):
    naive_sum = naive_sum + chunk.sum()
kahan, comp = torch.tensor(0.0), torch.tensor(0.0)
for v in vals[:2000]:
    y = v - comp
    t = kahan + y
    comp = (t - kahan) - y
    kahan = t
print("sums", round(vals.sum().item(), 3), round(naive_sum.item(), 3), round(kahan.item(), 4),
      round(vals.double().sum().item(), 3), round(vals[:2000].double().sum().item(), 4))

one = torch.tensor(1.0)
print("nextafter", (torch.nextafter(one, torch.tensor(2.0)) - one).item(), torch.finfo(torch.float32).eps)
print("spacing at 1e8", (torch.nextafter(torch.tensor(1e8), torch.tensor(2e8)) - 1e8).item(), torch.tensor(1e8) + 1 == torch.tensor(1e8))

data = torch.randn(1000, dtype=torch.float32) + 1e4
naive_var = (data ** 2).mean() - data.mean() ** 2
two_pass = ((data - data.mean()) ** 2).mean()
print("variance naive is off by more than 1:", abs(naive_var.item() - 1.0571) > 1, "two-pass", round(two_pass.item(), 4),
      "torch", round(data.var(unbiased=False).item(), 4), "float64", round(data.double().var(unbiased=False).item(), 4))

w = torch.zeros(3, requires_grad=True)
torch.sqrt(w.pow(2).sum()).backward()
print("grad sqrt at 0", w.grad.tolist())
w.grad = None
w.norm().backward()
print("grad norm at 0", w.grad.tolist())
w.grad = None
torch.sqrt(w.pow(2).sum() + 1e-12).backward()
print("grad eps-sqrt", w.grad.tolist())
p = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
ent = -(torch.xlogy(p, p)).sum()
ent.backward()
print("entropy", ent.item(), "grad", p.grad.tolist())
p2 = torch.tensor([1e-45, 1e-30, 0.5], requires_grad=True)
torch.log(p2.clamp(min=1e-12)).sum().backward()
print("clamped log grad", p2.grad.tolist())
print("atan2 quadrants", torch.atan2(torch.tensor([0.0, -0.0, 1.0, -1.0]), torch.tensor([-1.0, -1.0, 0.0, 0.0])).tolist())
print("angle wrap", torch.remainder(torch.tensor([-7.0, 7.0]) + math.pi, 2 * math.pi).sub(math.pi).tolist())
print("hypot", torch.hypot(torch.tensor([3e30, 1e-30]), torch.tensor([4e30, 1e-30])).tolist(),
      torch.sqrt(torch.tensor([3e30, 1e-30]) ** 2 + torch.tensor([4e30, 1e-30]) ** 2).tolist())
