"""Clustering in plain torch as notebooks and kmeans_pytorch write it: k-means with torch.cdist
distances, argmin assignments, centroid updates by index_add_ / bincount counts (and the scatter_reduce
'mean' form), the inertia and a convergence test with torch.allclose, deterministic k-means++ style
seeding by farthest point with torch.max; then a Gaussian mixture fitted by EM: log-densities from
MultivariateNormal and written out with torch.linalg.slogdet / cholesky_solve-free solves,
responsibilities by log_softmax over components with torch.logsumexp for the log-likelihood, M-step
means / covariances with einsum and a diagonal jitter, monotone log-likelihood, and predict_proba."""
import math

import torch
from torch.distributions import MultivariateNormal

torch.manual_seed(0)
centers = torch.tensor([[0.0, 0.0], [4.0, 4.0], [0.0, 5.0]])
X = torch.cat([c + 0.5 * torch.randn(30, 2) for c in centers])
print(X.shape, X.dtype)


def farthest_point_init(X, k):
    idx = [0]
    dist = torch.cdist(X, X[idx]).min(dim=1).values
    for _ in range(k - 1):
        nxt = int(torch.argmax(dist))
        idx.append(nxt)
        dist = torch.minimum(dist, torch.cdist(X, X[nxt:nxt + 1]).squeeze(1))
    return X[idx].clone(), idx


def kmeans(X, k, iters=20):
    C, idx = farthest_point_init(X, k)
    print("init idx", idx)
    for it in range(iters):
        d = torch.cdist(X, C)
        labels = d.argmin(dim=1)
        counts = torch.bincount(labels, minlength=k).clamp(min=1).unsqueeze(1).float()
        new_C = torch.zeros_like(C).index_add_(0, labels, X) / counts
        if torch.allclose(new_C, C):
            print("converged at", it)
            break
        C = new_C
    inertia = (X - C[labels]).pow(2).sum()
    return C, labels, inertia


C, labels, inertia = kmeans(X, 3)
print("centroids", C[C.sum(1).argsort()].round(decimals=2).tolist())
print("sizes", torch.bincount(labels).sort().values.tolist(), "inertia", round(inertia.item(), 3))
same = torch.zeros(3, 2).scatter_reduce(0, labels.unsqueeze(1).expand(-1, 2), X, reduce="mean", include_self=False)
print("scatter_reduce mean == centroids:", torch.allclose(same, C, atol=1e-5))
print("cdist p=1 vs manual:", torch.allclose(torch.cdist(X[:4], C, p=1), (X[:4, None] - C[None]).abs().sum(-1), atol=1e-5),
      torch.cdist(X[:2], C).shape)


def log_gauss(X, mu, cov):
    d = X.shape[1]
    L = torch.linalg.cholesky(cov)
    diff = (X[:, None, :] - mu[None]).unsqueeze(-1)
    sol = torch.linalg.solve_triangular(L[None], diff, upper=False).squeeze(-1)
    maha = sol.pow(2).sum(-1)
    logdet = torch.linalg.slogdet(cov)[1]
    return -0.5 * (d * math.log(2 * math.pi) + logdet[None] + maha)


K = 3
mu = C.clone()
cov = torch.eye(2).repeat(K, 1, 1)
log_pi = torch.full((K,), -math.log(K))
prev = -float("inf")
for it in range(15):
    log_p = log_gauss(X, mu, cov) + log_pi
    ll = torch.logsumexp(log_p, dim=1).sum()
    resp = torch.softmax(log_p, dim=1)
    Nk = resp.sum(0)
    mu = (resp.T @ X) / Nk[:, None]
    diff = X[:, None, :] - mu[None]
    cov = torch.einsum("nk,nki,nkj->kij", resp, diff, diff) / Nk[:, None, None] + 1e-6 * torch.eye(2)
    log_pi = torch.log(Nk / X.shape[0])
    assert ll >= prev - 1e-3
    prev = ll
    if it % 5 == 0:
        print(f"EM iter {it} loglik {ll.item():.4f}")
mvn = MultivariateNormal(mu, covariance_matrix=cov)
print("mvn log_prob matches:", torch.allclose(mvn.log_prob(X[:, None, :]), log_gauss(X, mu, cov), atol=1e-4),
      mvn.batch_shape, mvn.event_shape)
print("weights", log_pi.exp()[mu.sum(1).argsort()].round(decimals=3).tolist())
print("means", mu[mu.sum(1).argsort()].round(decimals=2).tolist())
proba = torch.softmax(log_gauss(X[:3], mu, cov) + log_pi, dim=1)
print("predict_proba rows sum to 1:", torch.allclose(proba.sum(1), torch.ones(3)), proba.max(1).values.gt(0.99).tolist())
