"""Linear-algebra recipes from ML notebooks, printed as sign-independent quantities: spectral clustering
with the normalised graph Laplacian (linalg.eigh), the stationary distribution of a Markov chain (matrix_power
and linalg.eig of a non-symmetric matrix), orthogonal Procrustes with linalg.svd, the matrix square root and
inverse square root (ZCA whitening) through eigh, Newton-Schulz orthogonalisation as in the Muon optimizer,
linalg.norm / matrix_norm / vector_norm orders, cond, matrix_rank, pinv, multi_dot, matrix_exp of a skew
matrix, svdvals, slogdet, and the Gram-Schmidt process against linalg.qr."""
import math

import torch

torch.manual_seed(53)
torch.set_default_dtype(torch.float64)

centers = torch.tensor([[0.0, 0.0], [4.0, 4.0]])
points = torch.cat([centers[0] + 0.5 * torch.randn(6, 2), centers[1] + 0.5 * torch.randn(6, 2)])
dist2 = torch.cdist(points, points).pow(2)
W = torch.exp(-dist2 / 2.0)
W.fill_diagonal_(0)
d = W.sum(1)
L_sym = torch.eye(12) - W / torch.sqrt(d[:, None] * d[None, :])
evals, evecs = torch.linalg.eigh(L_sym)
fiedler = evecs[:, 1] * torch.sign(evecs[0, 1])
print("laplacian eigenvalues", evals[0].abs().item() < 1e-12, evals[1:4])
print("clusters", (fiedler > 0).long(), "eigengap", (evals[2] - evals[1]).item())

P = torch.tensor([[0.9, 0.075, 0.025], [0.15, 0.8, 0.05], [0.25, 0.25, 0.5]])
print("P^50 row", torch.linalg.matrix_power(P, 50)[0])
vals, vecs = torch.linalg.eig(P.T)
idx = torch.argmin((vals - 1).abs())
stationary = vecs[:, idx].real
stationary = stationary / stationary.sum()
print("stationary", stationary, "eigenvalue moduli", vals.abs().sort(descending=True).values)
print("eigvals", torch.linalg.eigvals(torch.tensor([[2.0, 1.0], [1.0, 2.0]])), torch.linalg.eigvals(torch.tensor([[0.0, -1.0], [1.0, 0.0]])))

A = torch.randn(5, 3)
theta = 0.7
R_true = torch.tensor([[math.cos(theta), -math.sin(theta), 0.0], [math.sin(theta), math.cos(theta), 0.0], [0.0, 0.0, 1.0]])
B = A @ R_true + 0.01 * torch.randn(5, 3)
U, S, Vh = torch.linalg.svd(A.T @ B)
R = U @ Vh
print("procrustes", R, "\nerror", (R - R_true).abs().max().item() < 0.05, torch.linalg.det(R).item())
print("svdvals", torch.linalg.svdvals(A), S)

X = torch.randn(50, 3) @ torch.tensor([[2.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.5, 0.2, 0.3]])
Xc = X - X.mean(0)
C = Xc.T @ Xc / (len(X) - 1)
e, V = torch.linalg.eigh(C)
C_sqrt = V @ torch.diag(e.sqrt()) @ V.T
C_inv_sqrt = V @ torch.diag(1 / torch.sqrt(e + 1e-8)) @ V.T
Z = Xc @ C_inv_sqrt
print("sqrtm", torch.allclose(C_sqrt @ C_sqrt, C), "whitened cov", torch.cov(Z.T).diagonal(), torch.cov(Z.T)[0, 1].abs().item() < 1e-10)


def newton_schulz(G, steps=10):
    a, b, c = (3.4445, -4.7750, 2.0315)
    X = G / (G.norm() + 1e-7)
    transposed = G.size(0) > G.size(1)
    if transposed:
        X = X.T
    for _ in range(steps):
        A = X @ X.T
        B = b * A + c * A @ A
        X = a * X + B @ X
    return X.T if transposed else X


G = torch.randn(4, 6)
O = newton_schulz(G)
print("newton-schulz singular values", torch.linalg.svdvals(O))
cubic = G / G.norm()
for _ in range(30):
    cubic = 1.5 * cubic - 0.5 * cubic @ cubic.T @ cubic
print("cubic iteration", torch.linalg.svdvals(cubic), torch.allclose(cubic, torch.linalg.svd(G, full_matrices=False)[0] @ torch.linalg.svd(G, full_matrices=False)[2], atol=1e-6))

M = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
for ord in ("fro", "nuc", 1, -1, 2, -2, float("inf"), -float("inf")):
    print("matrix_norm", ord, round(torch.linalg.matrix_norm(M, ord=ord).item(), 6), round(torch.linalg.norm(M, ord=ord).item(), 6))
v = torch.tensor([3.0, -4.0, 0.0, 1.0])
print("vector_norm", [round(torch.linalg.vector_norm(v, ord=o).item(), 6) for o in (0, 1, 2, 3, float("inf"), -float("inf"), 0.5)])
print("cond", torch.linalg.cond(M).item(), torch.linalg.cond(M, "fro").item())
print("matrix_rank", torch.linalg.matrix_rank(torch.outer(torch.arange(1.0, 4.0), torch.arange(1.0, 5.0))).item(), torch.linalg.matrix_rank(M).item(),
      torch.linalg.matrix_rank(torch.tensor([[1.0, 0.0], [0.0, 1e-9]]), atol=1e-6).item())
print("pinv", torch.linalg.pinv(torch.tensor([[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]])))
mats = [torch.randn(3, 4), torch.randn(4, 5), torch.randn(5, 2)]
print("multi_dot", torch.allclose(torch.linalg.multi_dot(mats), mats[0] @ mats[1] @ mats[2]))
K = torch.tensor([[0.0, -0.3, 0.2], [0.3, 0.0, -0.1], [-0.2, 0.1, 0.0]])
Q = torch.linalg.matrix_exp(K)
print("expm of skew is orthogonal", torch.allclose(Q @ Q.T, torch.eye(3)), torch.linalg.det(Q).item())
sign, logabs = torch.linalg.slogdet(M)
print("slogdet", sign.item(), logabs.item(), torch.linalg.det(M).item())


def gram_schmidt(A):
    Q = torch.zeros_like(A)
    for j in range(A.shape[1]):
        v = A[:, j].clone()
        for i in range(j):
            v -= (Q[:, i] @ A[:, j]) * Q[:, i]
        Q[:, j] = v / v.norm()
    return Q


A = torch.randn(5, 3)
Qg = gram_schmidt(A)
Qr, Rr = torch.linalg.qr(A)
signs = torch.sign(torch.diagonal(Rr))
print("gram-schmidt == qr", torch.allclose(Qg, Qr * signs), (Rr * signs[:, None]).diagonal())
Qc, Rc = torch.linalg.qr(A, mode="complete")
print("complete qr", Qc.shape, Rc.shape, torch.allclose(Qc.T @ Qc, torch.eye(5)))
torch.set_default_dtype(torch.float32)
