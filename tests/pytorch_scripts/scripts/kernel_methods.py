"""Kernel methods written directly in PyTorch, as in course notebooks and GPyTorch-free blog posts:
RBF / Laplacian / polynomial Gram matrices with torch.cdist, kernel ridge regression by
torch.linalg.solve and by cholesky + cholesky_solve, a linear SVM trained with hinge loss and a
kernel SVM in the dual via projected gradient ascent, Nystroem features from torch.linalg.eigh,
random Fourier features, kernel PCA with centring, and the MMD two-sample statistic."""
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def rbf(X, Y, gamma=0.5):
    return torch.exp(-gamma * torch.cdist(X, Y).pow(2))


def laplacian(X, Y, gamma=0.5):
    return torch.exp(-gamma * torch.cdist(X, Y, p=1))


def poly(X, Y, degree=3, c=1.0):
    return (X @ Y.T + c) ** degree


X = torch.linspace(-3, 3, 40).unsqueeze(1)
y = torch.sin(X).squeeze(1) + 0.1 * torch.randn(40)
Xt = torch.linspace(-3, 3, 7).unsqueeze(1)
for name, k in [("rbf", rbf), ("laplacian", laplacian), ("poly", poly)]:
    K = k(X.double(), X.double())  # the cubic kernel's Gram matrix is ill-conditioned in float32
    alpha = torch.linalg.solve(K + 0.1 * torch.eye(40, dtype=torch.float64), y.double())
    pred = k(Xt.double(), X.double()) @ alpha
    print(f"{name}: K sym {torch.allclose(K, K.T)} pred", pred.round(decimals=3).tolist())

K = rbf(X.double(), X.double())
L = torch.linalg.cholesky(K + 0.1 * torch.eye(40, dtype=torch.float64))
alpha_chol = torch.cholesky_solve(y.double().unsqueeze(1), L).squeeze(1)
alpha_solve = torch.linalg.solve(K + 0.1 * torch.eye(40, dtype=torch.float64), y.double())
print("cholesky == solve", torch.allclose(alpha_chol, alpha_solve), "logdet", round(2 * L.diagonal().log().sum().item(), 4),
      round(torch.logdet(K + 0.1 * torch.eye(40, dtype=torch.float64)).item(), 4))
eig = torch.linalg.eigvalsh(K)
print("psd", bool(eig.min() > -1e-8), "top eigenvalues", eig.flip(0)[:3].round(decimals=4).tolist())

# linear SVM with hinge loss
Xc = torch.cat([torch.randn(30, 2) + 2, torch.randn(30, 2) - 2])
yc = torch.cat([torch.ones(30), -torch.ones(30)])
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
C = 1.0
for epoch in range(50):
    margin = yc * (Xc @ w + b)
    loss = 0.5 * w.dot(w) + C * torch.clamp(1 - margin, min=0).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("linear svm loss", round(loss.item(), 4), "w", w.detach().round(decimals=3).tolist(),
      "acc", (torch.sign(Xc @ w + b) == yc).float().mean().item())
sv = (margin.detach() <= 1 + 1e-3).sum().item()
print("margin violators", sv, "soft-margin via F.relu", round(F.relu(1 - margin).mean().item(), 4))

# kernel SVM in the dual: maximise sum(a) - 1/2 a^T (yy^T * K) a, 0 <= a <= C
Xr = torch.randn(40, 2)
yr = torch.where(Xr.norm(dim=1) > 1.1, 1.0, -1.0)
Kr = rbf(Xr, Xr, gamma=1.0)
Q = (yr[:, None] * yr[None, :]) * Kr
a = torch.zeros(40)
for it in range(300):
    grad = 1 - Q @ a
    a = (a + 0.01 * grad).clamp_(0, 1.0)
    a = a - yr * (a @ yr) / 40  # keep sum(a * y) close to 0
    a.clamp_(0, 1.0)
support_idx = torch.nonzero(a > 1e-4).squeeze(1)
bias = (yr[support_idx] - (a * yr) @ Kr[:, support_idx]).mean()
decision = (a * yr) @ Kr + bias
print("dual objective", round((a.sum() - 0.5 * a @ Q @ a).item(), 4), "support vectors", support_idx.numel(),
      "train acc", (torch.sign(decision) == yr).float().mean().item())

# Nystroem approximation
landmarks = Xr[torch.randperm(40)[:10]]
K_mm = rbf(landmarks, landmarks, 1.0)
K_nm = rbf(Xr, landmarks, 1.0)
evals, evecs = torch.linalg.eigh(K_mm)
keep = evals > 1e-6
features = K_nm @ evecs[:, keep] / evals[keep].sqrt()
approx = features @ features.T
print("nystroem rank", int(keep.sum()), "rel error", round(((approx - Kr).norm() / Kr.norm()).item(), 4))

# random Fourier features for the RBF kernel exp(-||x-y||^2 / 2)
D = 2000
Wf = torch.randn(2, D)
bf = torch.rand(D) * 2 * math.pi
Z = math.sqrt(2.0 / D) * torch.cos(Xr @ Wf + bf)
print("rff error", round((Z @ Z.T - rbf(Xr, Xr, 0.5)).abs().mean().item(), 4))

# kernel PCA
n = Kr.shape[0]
one_n = torch.full((n, n), 1.0 / n)
Kc = Kr - one_n @ Kr - Kr @ one_n + one_n @ Kr @ one_n
vals, vecs = torch.linalg.eigh(Kc)
vals, vecs = vals.flip(0), vecs.flip(1)
proj = vecs[:, :2] * vals[:2].sqrt()
print("kpca explained", (vals[:2] / vals.clamp(min=0).sum()).round(decimals=4).tolist(), "centred", round(Kc.sum().item(), 3))
print("proj var", proj.var(dim=0, unbiased=False).mul(n).round(decimals=3).tolist())


# maximum mean discrepancy
def mmd2(Xs, Ys, gamma=1.0):
    Kxx, Kyy, Kxy = rbf(Xs, Xs, gamma), rbf(Ys, Ys, gamma), rbf(Xs, Ys, gamma)
    m, n = Xs.size(0), Ys.size(0)
    return ((Kxx.sum() - Kxx.diagonal().sum()) / (m * (m - 1)) + (Kyy.sum() - Kyy.diagonal().sum()) / (n * (n - 1))
            - 2 * Kxy.mean())


same = mmd2(torch.randn(50, 2), torch.randn(50, 2))
shifted = mmd2(torch.randn(50, 2), torch.randn(50, 2) + 1.0)
print("mmd2 same", round(same.item(), 4), "shifted", round(shifted.item(), 4))
