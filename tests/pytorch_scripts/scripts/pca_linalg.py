"""Classical linear algebra as data-science notebooks write it in torch: PCA by torch.linalg.svd of
centred data (explained variance ratio, sign-fixed components, projection and reconstruction),
the same through torch.linalg.eigh of the covariance (torch.cov) and torch.pca_lowrank's
deterministic pieces, ZCA whitening, least squares by torch.linalg.lstsq vs the normal equations vs
pinv, ridge regression with torch.linalg.solve, Kabsch/Procrustes alignment with the det sign fix,
QR-based orthogonalisation, matrix_rank / matrix_norm / cond / vector_norm / multi_dot / matrix_power /
matrix_exp, and a low-rank approximation error given by the dropped singular values."""
import math

import torch

torch.manual_seed(0)
n, d = 50, 4
latent = torch.randn(n, 2)
mixing = torch.tensor([[2.0, 0.5, 0.0, 1.0], [0.0, 1.0, -1.0, 0.5]])
X = latent @ mixing + 0.1 * torch.randn(n, d)
Xc = X - X.mean(0)
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
print(U.shape, S.shape, Vh.shape, "full", torch.linalg.svd(Xc).U.shape)
explained = S ** 2 / (n - 1)
ratio = explained / explained.sum()
print("explained ratio", ratio.round(decimals=4).tolist(), "cumsum", ratio.cumsum(0)[1].round(decimals=4).item())
signs = torch.sign(Vh[:, Vh.abs().argmax(1)].diagonal())
components = Vh * signs[:, None]
print("components", components[:2].round(decimals=3).tolist())
Z = Xc @ components[:2].T
recon = Z @ components[:2] + X.mean(0)
print("recon err", round((recon - X).pow(2).mean().item(), 5), "svdvals", torch.linalg.svdvals(Xc).round(decimals=3).tolist())
C = torch.cov(X.T)
evals, evecs = torch.linalg.eigh(C)
print("cov", torch.allclose(C, Xc.T @ Xc / (n - 1), atol=1e-5), "eigh desc", evals.flip(0).round(decimals=4).tolist())
print("eig matches svd", torch.allclose(evals.flip(0), explained, rtol=1e-4),
      torch.allclose((evecs[:, -1] @ components[0]).abs(), torch.tensor(1.0), atol=1e-5))
print("corrcoef", torch.corrcoef(X.T)[0].round(decimals=4).tolist())
W_zca = evecs @ torch.diag(1.0 / torch.sqrt(evals + 1e-5)) @ evecs.T
white = Xc @ W_zca
print("zca", torch.cov(white.T).diagonal().round(decimals=3).tolist())

# regression
A = torch.cat([torch.ones(n, 1), X[:, :3]], 1)
y = X[:, 3] + 0.05 * torch.randn(n)
sol = torch.linalg.lstsq(A, y.unsqueeze(1))
normal = torch.linalg.solve(A.T @ A, A.T @ y)
print("lstsq", sol.solution.squeeze(1).round(decimals=4).tolist(), sol.rank, sol.residuals.shape)
print("normal eq", torch.allclose(normal, sol.solution.squeeze(1), atol=1e-4),
      "pinv", torch.allclose(torch.linalg.pinv(A) @ y, normal, atol=1e-4))
lam = 10.0
ridge = torch.linalg.solve(A.T @ A + lam * torch.eye(4), A.T @ y)
print("ridge", ridge.round(decimals=4).tolist(), round(torch.linalg.vector_norm(ridge).item(), 4) < round(
    torch.linalg.vector_norm(normal).item(), 4))

# Kabsch
theta = math.pi / 5
R_true = torch.tensor([[math.cos(theta), -math.sin(theta), 0.0], [math.sin(theta), math.cos(theta), 0.0],
                       [0.0, 0.0, 1.0]])
P = torch.randn(10, 3)
Q = P @ R_true.T + torch.tensor([1.0, -2.0, 0.5])
Pc, Qc = P - P.mean(0), Q - Q.mean(0)
H = Pc.T @ Qc
U, S, Vh = torch.linalg.svd(H)
dsign = torch.sign(torch.linalg.det(Vh.T @ U.T))
D = torch.diag(torch.tensor([1.0, 1.0, dsign.item()]))
R = Vh.T @ D @ U.T
print("kabsch", torch.allclose(R, R_true, atol=1e-5), round(torch.linalg.det(R).item(), 5))

Qm, Rm = torch.linalg.qr(torch.randn(5, 3))
print("qr", Qm.shape, torch.allclose(Qm.T @ Qm, torch.eye(3), atol=1e-6), torch.allclose(Rm, Rm.triu()),
      torch.linalg.qr(torch.randn(5, 3), mode="complete").Q.shape)
M = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
print("rank", torch.linalg.matrix_rank(Xc).item(), torch.linalg.matrix_rank(latent @ mixing).item())
print("norms", round(torch.linalg.matrix_norm(M).item(), 4), torch.linalg.matrix_norm(M, ord=1).item(),
      round(torch.linalg.matrix_norm(M, ord=2).item(), 4), round(torch.linalg.matrix_norm(M, ord="nuc").item(), 4),
      round(torch.linalg.cond(M).item(), 4))
print("vector norms", [round(torch.linalg.vector_norm(torch.tensor([3.0, -4.0]), ord=o).item(), 4)
                       for o in (1, 2, float("inf"), -float("inf"), 0, 0.5)])
print("multi_dot", torch.linalg.multi_dot([M, M, torch.ones(2, 1)]).flatten().tolist(),
      torch.linalg.matrix_power(M, 3).tolist(), torch.linalg.matrix_power(M, -1).round(decimals=4).tolist())
print("expm", torch.linalg.matrix_exp(torch.tensor([[0.0, -1.0], [1.0, 0.0]]) * math.pi / 2).round(decimals=4).tolist())
k = 2
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
approx = U[:, :k] @ torch.diag(S[:k]) @ Vh[:k]
print("eckart-young", round(torch.linalg.matrix_norm(Xc - approx).item(), 4), round(S[k:].pow(2).sum().sqrt().item(), 4))
Xg = Xc.clone().requires_grad_()
torch.linalg.svdvals(Xg).sum().backward()
print("nuclear grad", torch.allclose(Xg.grad, U @ Vh, atol=1e-4))
