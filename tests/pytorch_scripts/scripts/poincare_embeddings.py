"""Hyperbolic embeddings as facebookresearch/poincare-embeddings and HGCN write them: the Poincare
distance with arcosh, a custom autograd.Function for it with a hand-written backward, Riemannian SGD
that rescales the Euclidean gradient by ((1 - |x|^2)^2 / 4) and retracts with renorm_, the exponential
and logarithmic maps with artanh and clamps, Mobius addition, and the Lorentz model with its
Minkowski inner product."""
import torch
import torch.nn as nn
from torch.autograd import Function

torch.manual_seed(0)
eps = 1e-5


class Arcosh(Function):
    @staticmethod
    def forward(ctx, x):
        x = x.clamp(min=1 + 1e-7)
        ctx.save_for_backward(x)
        z = torch.sqrt(x * x - 1)
        return torch.log(x + z)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        z = torch.sqrt(x * x - 1).clamp(min=1e-7)
        return g / z


class PoincareDistance(Function):
    boundary = 1 - eps

    @staticmethod
    def grad(x, v, sqnormx, sqnormv, sqdist):
        alpha = (1 - sqnormx)
        beta = (1 - sqnormv)
        z = 1 + 2 * sqdist / (alpha * beta)
        a = ((sqnormv - 2 * torch.sum(x * v, dim=-1) + 1) / torch.pow(alpha, 2)).unsqueeze(-1).expand_as(x)
        a = a * x - v / alpha.unsqueeze(-1).expand_as(v)
        z = torch.sqrt(torch.pow(z, 2) - 1)
        z = torch.clamp(z * beta, min=eps).unsqueeze(-1)
        return 4 * a / z.expand_as(x)

    @staticmethod
    def forward(ctx, u, v):
        squnorm = torch.clamp(torch.sum(u * u, dim=-1), 0, PoincareDistance.boundary)
        sqvnorm = torch.clamp(torch.sum(v * v, dim=-1), 0, PoincareDistance.boundary)
        sqdist = torch.sum(torch.pow(u - v, 2), dim=-1)
        ctx.save_for_backward(u, v, squnorm, sqvnorm, sqdist)
        x = sqdist / ((1 - squnorm) * (1 - sqvnorm)) * 2 + 1
        z = torch.sqrt(torch.pow(x, 2) - 1)
        return torch.log(x + z)

    @staticmethod
    def backward(ctx, g):
        u, v, squnorm, sqvnorm, sqdist = ctx.saved_tensors
        g = g.unsqueeze(-1)
        gu = PoincareDistance.grad(u, v, squnorm, sqvnorm, sqdist)
        gv = PoincareDistance.grad(v, u, sqvnorm, squnorm, sqdist)
        return g.expand_as(gu) * gu, g.expand_as(gv) * gv


def poincare_dist_autograd(u, v):
    sqdist = (u - v).pow(2).sum(-1)
    x = 1 + 2 * sqdist / ((1 - u.pow(2).sum(-1)) * (1 - v.pow(2).sum(-1)))
    return Arcosh.apply(x)


u = (torch.rand(4, 3) - 0.5) * 0.8
v = (torch.rand(4, 3) - 0.5) * 0.8
u1, v1 = u.clone().requires_grad_(), v.clone().requires_grad_()
u2, v2 = u.clone().requires_grad_(), v.clone().requires_grad_()
d1 = PoincareDistance.apply(u1, v1)
d2 = poincare_dist_autograd(u2, v2)
d1.sum().backward()
d2.sum().backward()
print("dist", d1.detach().round(decimals=4).tolist(), d1.grad_fn.name())
print("same dist", torch.allclose(d1, d2), "same grads", torch.allclose(u1.grad, u2.grad, atol=1e-5),
      torch.allclose(v1.grad, v2.grad, atol=1e-5))
print("acosh", torch.allclose(d2, torch.acosh(1 + 2 * (u - v).pow(2).sum(-1) / ((1 - u.pow(2).sum(-1)) * (1 - v.pow(2).sum(-1))))))
uu = u.double().requires_grad_()
vv = v.double().requires_grad_()
print("gradcheck", torch.autograd.gradcheck(PoincareDistance.apply, (uu, vv)))


class RiemannianSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.3):
        defaults = dict(lr=lr)
        super(RiemannianSGD, self).__init__(params, defaults)

    def step(self, lr=None, closure=None):
        loss = None
        if closure is not None:
            loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                d_p = p.grad.data
                if d_p.is_sparse:
                    d_p = d_p.coalesce()
                p_sqnorm = torch.sum(p.data ** 2, dim=-1, keepdim=True)
                d_p = d_p * ((1 - p_sqnorm) ** 2 / 4).expand_as(d_p)
                lr_ = lr or group["lr"]
                p.data.add_(d_p, alpha=-lr_)
                p.data.renorm_(2, 0, 1 - eps)
        return loss


# embed a small tree: root 0, children 1-3, grandchildren 4-9
edges = torch.tensor([[0, 1], [0, 2], [0, 3], [1, 4], [1, 5], [2, 6], [2, 7], [3, 8], [3, 9]])
n_nodes = 10
emb = nn.Embedding(n_nodes, 2, max_norm=1 - eps)
emb.weight.data.uniform_(-0.1, 0.1)
opt = RiemannianSGD(emb.parameters(), lr=0.5)
print(opt)
for epoch in range(60):
    # negatives never the node itself (its distance to itself has a 0/0 gradient)
    neg = (edges[:, :1] + torch.randint(1, n_nodes, (len(edges), 5))) % n_nodes
    inputs = torch.cat([edges, neg], dim=1)  # [u, v_pos, v_neg...]
    e = emb(inputs)
    dists = PoincareDistance.apply(e[:, :1].expand_as(e[:, 1:]), e[:, 1:])
    loss = nn.functional.cross_entropy(-dists, torch.zeros(len(edges), dtype=torch.long))
    opt.zero_grad()
    loss.backward()
    opt.step(lr=0.3 if epoch > 10 else 0.05)
    if epoch % 20 == 0:
        print("epoch", epoch, "loss", round(loss.item(), 4))
norms = emb.weight.detach().norm(dim=-1)
print("root norm < leaf norms", bool(norms[0] < norms[4:].mean()), "max norm", round(norms.max().item(), 4) <= 1)
print("norms", norms.round(decimals=4).tolist())


def artanh(x):
    x = x.clamp(-1 + 1e-5, 1 - 1e-5)
    return 0.5 * (torch.log_(1 + x).sub_(torch.log_(1 - x)))


def mobius_add(x, y, c=1.0):
    x2 = x.pow(2).sum(dim=-1, keepdim=True)
    y2 = y.pow(2).sum(dim=-1, keepdim=True)
    xy = (x * y).sum(dim=-1, keepdim=True)
    num = (1 + 2 * c * xy + c * y2) * x + (1 - c * x2) * y
    denom = 1 + 2 * c * xy + c ** 2 * x2 * y2
    return num / denom.clamp_min(1e-15)


def expmap0(u, c=1.0):
    sqrt_c = c ** 0.5
    u_norm = torch.clamp_min(u.norm(dim=-1, p=2, keepdim=True), 1e-15)
    return torch.tanh(sqrt_c * u_norm) * u / (sqrt_c * u_norm)


def logmap0(p, c=1.0):
    sqrt_c = c ** 0.5
    p_norm = p.norm(dim=-1, p=2, keepdim=True).clamp_min(1e-15)
    return artanh(sqrt_c * p_norm) / (sqrt_c * p_norm) * p


tangent = torch.randn(3, 2)
p = expmap0(tangent)
print("expmap0 norms", p.norm(dim=-1).round(decimals=4).tolist())
print("log(exp) == id", torch.allclose(logmap0(p), tangent, atol=1e-3), torch.allclose(torch.atanh(p.norm(dim=-1)), artanh(p.norm(dim=-1)), atol=1e-4))
print("mobius x + 0", torch.allclose(mobius_add(p, torch.zeros_like(p)), p), "x + (-x)", mobius_add(p, -p).abs().max().item() < 1e-6)
dm = 2 * artanh(mobius_add(-p[0], p[1]).norm())
print("dist via mobius", round(dm.item(), 4), round(poincare_dist_autograd(p[0], p[1]).item(), 4))


# Lorentz (hyperboloid) model
def minkowski_dot(x, y, keepdim=True):
    res = torch.sum(x * y, dim=-1) - 2 * x[..., 0] * y[..., 0]
    return res.view(res.shape + (1,)) if keepdim else res


def to_hyperboloid(p):
    sq = p.pow(2).sum(-1, keepdim=True)
    return torch.cat([(1 + sq), 2 * p], dim=-1) / (1 - sq)


h = to_hyperboloid(p)
print("on hyperboloid", minkowski_dot(h, h).squeeze(-1).round(decimals=4).tolist())
lorentz_d = torch.acosh(torch.clamp(-minkowski_dot(h[0], h[1], keepdim=False), min=1.0 + 1e-7))
print("lorentz dist", round(lorentz_d.item(), 4))
