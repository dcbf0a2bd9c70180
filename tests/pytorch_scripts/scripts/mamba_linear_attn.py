"""Sub-quadratic sequence mixers as johnma2006/mamba-minimal and the linear-attention papers' reference
code write them: Mamba's ResidualBlock/MambaBlock (in_proj split into x and res, a depthwise causal
Conv1d with padding=d_conv-1 cut back to L, SiLU, x_proj split into delta/B/C, softplus dt_proj,
A = -exp(A_log) from repeat of arange, selective_scan with einsum discretisation deltaA = exp(einsum),
a sequential loop over L and torch.stack of ys, D skip, gating with silu(res)), RMSNorm, checked
against a parallel cumulative-sum form for a diagonal LTI case; then linear attention with the
elu(x)+1 feature map (causal through cumsum of k v^T outer products, non-causal through einsum),
matched to masked softmax-free quadratic attention, and a gradient step through all of it."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RMSNorm(nn.Module):
    def __init__(self, d_model: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_model))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class MambaBlock(nn.Module):
    def __init__(self, d_model=8, expand=2, d_state=4, d_conv=4, dt_rank=2, bias=False, conv_bias=True):
        super().__init__()
        self.d_inner = expand * d_model
        self.dt_rank = dt_rank
        self.d_state = d_state
        self.in_proj = nn.Linear(d_model, self.d_inner * 2, bias=bias)
        self.conv1d = nn.Conv1d(in_channels=self.d_inner, out_channels=self.d_inner, bias=conv_bias,
                                kernel_size=d_conv, groups=self.d_inner, padding=d_conv - 1)
        self.x_proj = nn.Linear(self.d_inner, dt_rank + d_state * 2, bias=False)
        self.dt_proj = nn.Linear(dt_rank, self.d_inner, bias=True)
        A = torch.arange(1, d_state + 1).float().repeat(self.d_inner, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(self.d_inner))
        self.out_proj = nn.Linear(self.d_inner, d_model, bias=bias)

    def forward(self, x):
        (b, l, d) = x.shape
        x_and_res = self.in_proj(x)
        (x, res) = x_and_res.split(split_size=[self.d_inner, self.d_inner], dim=-1)
        x = x.transpose(1, 2)
        x = self.conv1d(x)[:, :, :l]
        x = x.transpose(1, 2)
        x = F.silu(x)
        y = self.ssm(x)
        y = y * F.silu(res)
        return self.out_proj(y)

    def ssm(self, x):
        (d_in, n) = self.A_log.shape
        A = -torch.exp(self.A_log.float())
        D = self.D.float()
        x_dbl = self.x_proj(x)
        (delta, B, C) = x_dbl.split(split_size=[self.dt_rank, n, n], dim=-1)
        delta = F.softplus(self.dt_proj(delta))
        return selective_scan(x, delta, A, B, C, D)


def selective_scan(u, delta, A, B, C, D):
    (b, l, d_in) = u.shape
    n = A.shape[1]
    deltaA = torch.exp(torch.einsum("bld,dn->bldn", delta, A))
    deltaB_u = torch.einsum("bld,bln,bld->bldn", delta, B, u)
    x = torch.zeros((b, d_in, n), device=deltaA.device)
    ys = []
    for i in range(l):
        x = deltaA[:, i] * x + deltaB_u[:, i]
        y = torch.einsum("bdn,bn->bd", x, C[:, i, :])
        ys.append(y)
    y = torch.stack(ys, dim=1)
    return y + u * D


class ResidualBlock(nn.Module):
    def __init__(self, d_model=8):
        super().__init__()
        self.mixer = MambaBlock(d_model)
        self.norm = RMSNorm(d_model)

    def forward(self, x):
        return self.mixer(self.norm(x)) + x


block = ResidualBlock()
print(block.mixer.conv1d, block.mixer.A_log.shape, block.mixer.A_log[0].exp().tolist())
x = torch.randn(2, 7, 8)
y = block(x)
print("mamba out", y.shape, y.grad_fn.name())
u = torch.randn(1, 6, 3)
delta = torch.full((1, 6, 3), 0.5)
A = -torch.ones(3, 1)
Bm = torch.ones(1, 6, 1)
Cm = torch.ones(1, 6, 1)
scan = selective_scan(u, delta, A, Bm, Cm, torch.zeros(3))
decay = math.exp(-0.5)
powers = decay ** (torch.arange(6)[:, None] - torch.arange(6)[None, :]).clamp(min=0).float()
kernel = torch.tril(powers) * 0.5
closed = torch.einsum("ts,bsd->btd", kernel, u)
print("scan == convolution form:", torch.allclose(scan, closed, atol=1e-5))
y1 = block(x[:, :4])
print("causal:", torch.allclose(y[:, :4], y1, atol=1e-5))


def elu_feature_map(x):
    return F.elu(x) + 1


def linear_attention(q, k, v, causal):
    q, k = elu_feature_map(q), elu_feature_map(k)
    if causal:
        kv = torch.einsum("bhld,bhle->bhlde", k, v).cumsum(dim=2)
        z = 1.0 / (torch.einsum("bhld,bhld->bhl", q, k.cumsum(dim=2)) + 1e-6)
        return torch.einsum("bhld,bhlde,bhl->bhle", q, kv, z)
    kv = torch.einsum("bhsd,bhse->bhde", k, v)
    z = 1.0 / (torch.einsum("bhld,bhd->bhl", q, k.sum(dim=2)) + 1e-6)
    return torch.einsum("bhld,bhde,bhl->bhle", q, kv, z)


def quadratic_reference(q, k, v, causal):
    scores = elu_feature_map(q) @ elu_feature_map(k).transpose(-2, -1)
    if causal:
        scores = scores.masked_fill(torch.ones_like(scores, dtype=torch.bool).triu(1), 0.0)
    return (scores / scores.sum(-1, keepdim=True)) @ v


q, k, v = (torch.randn(2, 2, 5, 4, requires_grad=True) for _ in range(3))
for causal in (False, True):
    out = linear_attention(q, k, v, causal)
    print("linear attention causal" if causal else "linear attention", out.shape,
          torch.allclose(out, quadratic_reference(q, k, v, causal), atol=1e-4), out.grad_fn.name(),
          torch.einsum("bhld,bhle->bhlde", k, v).grad_fn.name(), torch.einsum("bhld->bhl", q).grad_fn.name())
out.sum().backward()
print("grads", q.grad.shape, round(q.grad.abs().sum().item(), 3) > 0, k.grad.abs().sum().item() > 0)
opt = torch.optim.AdamW(block.parameters(), lr=1e-2)
target = torch.randn(2, 7, 8)
for step in range(3):
    loss = F.mse_loss(block(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} A_log grad {block.mixer.A_log.grad.abs().sum().item() > 0}")
