"""Mixed-precision code on the CPU as people write it for bfloat16: torch.autocast(device_type='cpu',
dtype=torch.bfloat16) around the forward pass (matmul/linear/conv outputs in bfloat16, softmax,
layer_norm, sum and losses kept in float32), nested autocast(enabled=False) regions with explicit
.float(), torch.is_autocast_enabled / get_autocast_dtype, the decorator form, bfloat16 tensors'
rounding, printing, finfo and casting back, a bf16-weight model trained with fp32 master weights, and
the autocast-aware custom Function with torch.amp.custom_fwd/custom_bwd."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 4))
x = torch.randn(5, 8)
y = torch.randint(0, 4, (5,))

with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    h = model[0](x)
    out = model(x)
    probs = out.softmax(-1)
    loss = F.cross_entropy(out, y)
    mm = x @ x.T
    added = h + 1.0
    print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
    with torch.autocast(device_type="cpu", enabled=False):
        plain = model[0](x.float())
        print("inner", plain.dtype, torch.is_autocast_enabled("cpu"))
print(h.dtype, out.dtype, probs.dtype, loss.dtype, mm.dtype, added.dtype)
print("loss", round(loss.item(), 2), torch.is_autocast_enabled("cpu"))
print("bf16 vs fp32 max diff < 0.05:", (out.float() - model(x)).abs().max().item() < 0.05)
loss.backward()
print("grads fp32:", {p.grad.dtype for p in model.parameters()}, round(model[0].weight.grad.abs().sum().item(), 1))

conv = nn.Conv2d(3, 4, 3)
img = torch.randn(1, 3, 5, 5)
with torch.autocast("cpu", dtype=torch.bfloat16):
    c = conv(img)
    pooled = F.adaptive_avg_pool2d(c, 1)
    bmm = torch.bmm(torch.randn(2, 3, 4), torch.randn(2, 4, 5))
print(c.dtype, pooled.dtype, bmm.dtype)


@torch.autocast(device_type="cpu", dtype=torch.bfloat16)
def forward_bf16(m, inp):
    return m(inp)


print("decorated", forward_bf16(model, x).dtype, model(x).dtype)

a = torch.tensor([1.0, 1.00390625, 1.0078125, 3.14159, 1e-3, 65504.0, 1e38])
b = a.to(torch.bfloat16)
print(b)
print(b.float().tolist())
print(torch.finfo(torch.bfloat16).eps, torch.finfo(torch.bfloat16).max, torch.finfo(torch.bfloat16).tiny)
print((b + b).dtype, (b * 2.5).dtype, (b + a).dtype, (b + torch.tensor(1, dtype=torch.int32)).dtype)
print(torch.ones(3, dtype=torch.bfloat16).sum(), torch.arange(4, dtype=torch.bfloat16).mean())
print(torch.tensor([256.0, 257.0, 258.0], dtype=torch.bfloat16))

# bf16 weights with fp32 master copies
net = nn.Linear(4, 1)
master = [p.detach().clone() for p in net.parameters()]
net = net.to(torch.bfloat16)
print(net.weight.dtype, next(net.parameters()).dtype)
for p in master:
    p.requires_grad_(True)
opt = torch.optim.SGD(master, lr=0.1)
data, target = torch.randn(16, 4), torch.randn(16, 1)
for step in range(3):
    pred = net(data.to(torch.bfloat16))
    loss = F.mse_loss(pred.float(), target)
    net.zero_grad()
    loss.backward()
    for mp, p in zip(master, net.parameters()):
        mp.grad = p.grad.float()
    opt.step()
    with torch.no_grad():
        for mp, p in zip(master, net.parameters()):
            p.copy_(mp)
    print(f"step {step} loss {loss.item():.2f} grad dtype {next(net.parameters()).grad.dtype}")


class MyMM(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a.mm(b)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad.mm(b.t()), a.t().mm(grad)


p = torch.randn(3, 4, requires_grad=True)
q = torch.randn(4, 2, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    r = MyMM.apply(p, q)
    r2 = p.mm(q)
print("custom_fwd", r.dtype, r2.dtype)
r.sum().backward()
print(p.grad.dtype, round(p.grad.sum().item(), 4))
