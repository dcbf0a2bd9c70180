"""Activation checkpointing as training code writes it: torch.utils.checkpoint.checkpoint around
transformer blocks (use_reentrant=False and True, extra non-tensor args, a block with dropout whose
RNG state is preserved), checkpoint_sequential over an nn.Sequential in segments, HF-style
gradient_checkpointing_enable flags, and gradients equal to the plain run's."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d, p=0.0):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Dropout(p), nn.Linear(4 * d, d))

    def forward(self, x, scale=1.0):
        return x + scale * self.ff(self.ln(x))


class Model(nn.Module):
    def __init__(self, d=8, n=3, p=0.0):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d, p) for _ in range(n)])
        self.head = nn.Linear(d, 1)
        self.gradient_checkpointing = False

    def gradient_checkpointing_enable(self):
        self.gradient_checkpointing = True

    def forward(self, x, use_reentrant=False):
        for block in self.blocks:
            if self.gradient_checkpointing and self.training:
                x = checkpoint(block, x, 0.5, use_reentrant=use_reentrant)
            else:
                x = block(x, 0.5)
        return self.head(x).squeeze(-1)


def grads(model, x, y, **kw):
    model.zero_grad()
    loss = F.mse_loss(model(x, **kw).sum(-1), y)
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]


model = Model()
x = torch.randn(4, 5, 8)
y = torch.randn(4)
plain_loss, plain = grads(model, x, y)
model.gradient_checkpointing_enable()
ck_loss, ck = grads(model, x, y)
ck2_loss, ck2 = grads(model, x.requires_grad_(), y, use_reentrant=True)
print(f"{plain_loss:.6f} {ck_loss:.6f} {ck2_loss:.6f}")
print(all(torch.allclose(a, b, atol=1e-6) for a, b in zip(plain, ck)), all(torch.allclose(a, b, atol=1e-6) for a, b in zip(plain, ck2)))
print(x.grad.shape, x.grad.abs().sum().item())
print(plain[0][:4])

# dropout inside a checkpointed block: preserve_rng_state replays the same mask in the recomputation
torch.manual_seed(1)
drop_model = Model(p=0.5)
drop_model.gradient_checkpointing_enable()
torch.manual_seed(2)
loss_ck, g_ck = grads(drop_model, x.detach(), y)
drop_model.gradient_checkpointing = False
torch.manual_seed(2)
loss_plain, g_plain = grads(drop_model, x.detach(), y)
print(f"{loss_ck:.6f} {loss_plain:.6f}", all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g_ck, g_plain)))

# checkpoint_sequential over segments
seq = nn.Sequential(*[nn.Sequential(nn.Linear(8, 8), nn.Tanh()) for _ in range(6)], nn.Linear(8, 2))
inp = torch.randn(10, 8, requires_grad=True)
out = checkpoint_sequential(seq, 3, inp, use_reentrant=False)
out.pow(2).mean().backward()
g1 = [p.grad.clone() for p in seq.parameters()]
gi = inp.grad.clone()
seq.zero_grad()
inp.grad = None
seq(inp).pow(2).mean().backward()
print(out.shape, out.grad_fn is not None, all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g1, seq.parameters()) if False) or all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(g1, seq.parameters())), torch.allclose(gi, inp.grad))
print(out[:2])


# a function, not a module, with several outputs
def attention(q, k, v):
    w = torch.softmax(q @ k.transpose(-2, -1) / q.size(-1) ** 0.5, dim=-1)
    return w @ v, w


q, k, v = (torch.randn(2, 4, 6, requires_grad=True) for _ in range(3))
o, w = checkpoint(attention, q, k, v, use_reentrant=False)
(o.sum() + (w * w).sum()).backward()
print(o.shape, w.shape, q.grad.sum().item(), v.grad[0, 0])
with torch.no_grad():
    o2, _ = checkpoint(attention, q, k, v, use_reentrant=False)
print(o2.requires_grad, torch.allclose(o2, o))
