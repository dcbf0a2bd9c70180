"""Optimal transport in plain torch as the POT-free tutorials and SuperGlue / SwAV code write it:
entropic Sinkhorn iterations in the kernel form (K = exp(-C/eps), u = a / (K v)), the log-domain
version with torch.logsumexp (log_optimal_transport with a dustbin row and column as SuperGlue writes
it, torch.cat of expanded bins, norm = -(ms + ns).log()), SwAV's distributed_sinkhorn on prototype
scores (Q /= sum, row/column normalisation, Q *= B), the 1-D Wasserstein distance via sort, the
marginals checked, and gradients of the Sinkhorn cost with respect to point positions."""
import torch

torch.manual_seed(0)
x = torch.randn(6, 2)
y = torch.randn(5, 2) + 1.0
C = torch.cdist(x, y) ** 2
a = torch.full((6,), 1 / 6)
b = torch.full((5,), 1 / 5)


def sinkhorn(a, b, C, eps=0.5, iters=200):
    K = torch.exp(-C / eps)
    u = torch.ones_like(a)
    v = torch.ones_like(b)
    for _ in range(iters):
        u = a / (K @ v)
        v = b / (K.T @ u)
    return u[:, None] * K * v[None, :]


P = sinkhorn(a, b, C)
print("plan", P.shape, "marginals", torch.allclose(P.sum(1), a, atol=1e-5), torch.allclose(P.sum(0), b, atol=1e-4))
print("cost", round((P * C).sum().item(), 4), "entropy", round(-(P * P.log()).sum().item(), 4))


def log_sinkhorn(log_a, log_b, C, eps=0.5, iters=200):
    f = torch.zeros_like(log_a)
    g = torch.zeros_like(log_b)
    for _ in range(iters):
        f = eps * log_a - eps * torch.logsumexp((g[None, :] - C) / eps, dim=1)
        g = eps * log_b - eps * torch.logsumexp((f[:, None] - C) / eps, dim=0)
    return torch.exp((f[:, None] + g[None, :] - C) / eps)


P2 = log_sinkhorn(a.log(), b.log(), C)
print("log-domain == kernel form:", torch.allclose(P, P2, atol=1e-5))
print("small eps finite:", torch.isfinite(log_sinkhorn(a.log(), b.log(), C, eps=0.01, iters=50)).all().item(),
      torch.isfinite(sinkhorn(a, b, C, eps=0.01, iters=50)).all().item())


def log_sinkhorn_iterations(Z, log_mu, log_nu, iters: int):
    u, v = torch.zeros_like(log_mu), torch.zeros_like(log_nu)
    for _ in range(iters):
        u = log_mu - torch.logsumexp(Z + v.unsqueeze(1), dim=2)
        v = log_nu - torch.logsumexp(Z + u.unsqueeze(2), dim=1)
    return Z + u.unsqueeze(2) + v.unsqueeze(1)


def log_optimal_transport(scores, alpha, iters: int):
    b, m, n = scores.shape
    one = scores.new_tensor(1)
    ms, ns = (m * one).to(scores), (n * one).to(scores)
    bins0 = alpha.expand(b, m, 1)
    bins1 = alpha.expand(b, 1, n)
    alpha = alpha.expand(b, 1, 1)
    couplings = torch.cat([torch.cat([scores, bins0], -1), torch.cat([bins1, alpha], -1)], 1)
    norm = - (ms + ns).log()
    log_mu = torch.cat([norm.expand(m), ns.log()[None] + norm])
    log_nu = torch.cat([norm.expand(n), ms.log()[None] + norm])
    log_mu, log_nu = log_mu[None].expand(b, -1), log_nu[None].expand(b, -1)
    Z = log_sinkhorn_iterations(couplings, log_mu, log_nu, iters)
    Z = Z - norm
    return Z


scores = torch.randn(2, 4, 3)
bin_score = torch.nn.Parameter(torch.tensor(1.))
Z = log_optimal_transport(scores, bin_score, iters=50)
print("superglue Z", Z.shape, Z.grad_fn.name(), Z.exp().sum(2)[:, :-1].round(decimals=3).tolist())
max0, max1 = Z[:, :-1, :-1].max(2), Z[:, :-1, :-1].max(1)
indices0, indices1 = max0.indices, max1.indices
mutual0 = torch.arange(indices0.shape[1])[None] == indices1.gather(1, indices0)
print("mutual", mutual0.tolist(), indices0.tolist())
Z.sum().backward()
print("bin_score grad", round(bin_score.grad.item(), 4))


@torch.no_grad()
def distributed_sinkhorn(out, epsilon=0.05, sinkhorn_iterations=3):
    Q = torch.exp(out / epsilon).t()
    B = Q.shape[1]
    K = Q.shape[0]
    sum_Q = torch.sum(Q)
    Q /= sum_Q
    for it in range(sinkhorn_iterations):
        sum_of_rows = torch.sum(Q, dim=1, keepdim=True)
        Q /= sum_of_rows
        Q /= K
        Q /= torch.sum(Q, dim=0, keepdim=True)
        Q /= B
    Q *= B
    return Q.t()


protos = torch.nn.functional.normalize(torch.randn(8, 4), dim=1)
feats = torch.nn.functional.normalize(torch.randn(10, 4), dim=1)
q = distributed_sinkhorn(feats @ protos.T)
print("swav codes", q.shape, q.sum(1).round(decimals=4).tolist()[:3], q.sum(0).round(decimals=3).tolist()[:3], q.requires_grad)
u = torch.tensor([0.0, 1.0, 3.0, 2.5])
v = torch.tensor([0.5, 2.0, 2.0, 4.0])
print("w1 by sort", (u.sort().values - v.sort().values).abs().mean().item())
xs = x.clone().requires_grad_()
cost = (sinkhorn(a, b, torch.cdist(xs, y) ** 2, iters=50) * torch.cdist(xs, y) ** 2).sum()
cost.backward()
print("grad wrt points", xs.grad.shape, round(xs.grad.norm().item(), 4), cost.grad_fn.name())
