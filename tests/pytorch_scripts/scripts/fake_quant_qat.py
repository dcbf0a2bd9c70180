"""Quantisation-aware training written by hand, as QAT tutorials and LSQ/PACT repositories do it: a
round-with-straight-through-estimator autograd.Function, the one-line STE (x + (x.round() - x).detach()),
symmetric per-tensor and per-channel (amax over dims) scales, asymmetric min/max observers with
zero points, torch.fake_quantize_per_tensor_affine / per_channel_affine checked against the hand
version, an LSQ learnable step size with its gradient scale, PACT's learnable clipping alpha via
torch.where, a QuantLinear module trained for a few steps, and int8 round trips through .to(torch.int8)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def fake_quant_sym(x, bits=8, per_channel=False):
    qmax = 2 ** (bits - 1) - 1
    if per_channel:
        scale = x.detach().abs().amax(dim=tuple(range(1, x.dim())), keepdim=True) / qmax
    else:
        scale = x.detach().abs().max() / qmax
    scale = scale.clamp(min=1e-8)
    return torch.clamp(RoundSTE.apply(x / scale), -qmax - 1, qmax) * scale


def fake_quant_asym(x, bits=8):
    qmin, qmax = 0, 2 ** bits - 1
    min_val, max_val = x.min().clamp(max=0), x.max().clamp(min=0)
    scale = (max_val - min_val) / float(qmax - qmin)
    zero_point = (qmin - torch.round(min_val / scale)).clamp(qmin, qmax).int()
    q = torch.clamp(torch.round(x / scale) + zero_point, qmin, qmax)
    return (q - zero_point) * scale, scale, zero_point


x = torch.linspace(-1.3, 2.1, 9, requires_grad=True)
y = fake_quant_sym(x, bits=4)
y.sum().backward()
print("sym4", y.detach().round(decimals=4).tolist())
print("ste grad", x.grad.tolist(), y.grad_fn.name())
ste = x + (x.round() - x).detach()
print("one-line ste", ste.tolist(), ste.grad_fn.name())

deq, scale, zp = fake_quant_asym(x.detach(), bits=8)
print("asym", round(scale.item(), 6), zp.item(), zp.dtype, deq[:4].round(decimals=4).tolist())
ref = torch.fake_quantize_per_tensor_affine(x.detach(), scale.item(), zp.item(), 0, 255)
print("fake_quantize_per_tensor_affine agrees:", torch.allclose(ref, deq, atol=1e-6))
xg = x.detach().clone().requires_grad_()
out = torch.fake_quantize_per_tensor_affine(xg * 3, 0.1, 0, -8, 7)
out.sum().backward()
print("fq clip grad", xg.grad.tolist(), out.grad_fn.name())

w = torch.randn(3, 4)
scales = w.abs().amax(dim=1) / 127
per_ch = torch.fake_quantize_per_channel_affine(w, scales, torch.zeros(3, dtype=torch.int32), 0, -128, 127)
print("per-channel agrees:", torch.allclose(per_ch, fake_quant_sym(w, per_channel=True), atol=1e-6),
      round((per_ch - w).abs().max().item(), 5))
q_int = torch.clamp(torch.round(w / scales[:, None]), -128, 127).to(torch.int8)
print(q_int.dtype, q_int[0].tolist(), (q_int.float() * scales[:, None] - w).abs().max().item() < 0.02)


class LsqQuantizer(nn.Module):
    def __init__(self, bits=4):
        super().__init__()
        self.qn, self.qp = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        self.s = nn.Parameter(torch.tensor(1.0))
        self.initialized = False

    def forward(self, x):
        if not self.initialized:
            self.s.data.copy_(2 * x.detach().abs().mean() / (self.qp ** 0.5))
            self.initialized = True
        g = 1.0 / (x.numel() * self.qp) ** 0.5
        s = (self.s - self.s * g).detach() + self.s * g  # grad_scale
        v = torch.clamp(x / s, self.qn, self.qp)
        return (v.round() - v).detach() + v
        

class PACT(nn.Module):
    def __init__(self, alpha=2.0):
        super().__init__()
        self.alpha = nn.Parameter(torch.tensor(alpha))

    def forward(self, x):
        x = torch.where(x < self.alpha, x, self.alpha)
        x = F.relu(x)
        scale = self.alpha.detach() / 15
        return x + (torch.round(x / scale) * scale - x).detach()


class QuantLinear(nn.Linear):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.w_quant = LsqQuantizer(4)

    def forward(self, x):
        wq = self.w_quant(self.weight) * self.w_quant.s
        return F.linear(x, wq, self.bias)


model = nn.Sequential(QuantLinear(4, 8), PACT(), QuantLinear(8, 2))
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
data, target = torch.randn(16, 4), torch.randint(0, 2, (16,))
for step in range(5):
    loss = F.cross_entropy(model(data), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} s {model[0].w_quant.s.item():.4f} alpha {model[1].alpha.item():.4f}")
print("alpha grad", round(model[1].alpha.grad.item(), 5), "s grad", round(model[2].w_quant.s.grad.item(), 5))
