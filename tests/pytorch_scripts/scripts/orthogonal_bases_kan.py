"""Orthogonal-polynomial and Bessel bases as research code uses them: a ChebyKAN / LegendreKAN layer
(Kolmogorov-Arnold network with learnable coefficients on torch.special polynomial bases of tanh(x)),
a spectral least-squares fit with torch.linalg.lstsq on Chebyshev and Hermite features, quantum
harmonic-oscillator eigenfunctions from hermite_polynomial_h, Gauss-Legendre checks, DimeNet-style
radial basis functions from spherical_bessel_j0, and GPyTorch's psd_safe_cholesky jitter loop on
linalg.cholesky_ex's info."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
S = torch.special

x = torch.linspace(-1, 1, 7)
for name in ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
             "chebyshev_polynomial_w", "legendre_polynomial_p", "hermite_polynomial_h",
             "hermite_polynomial_he", "laguerre_polynomial_l"]:
    fn = getattr(S, name)
    print(name, [fn(x, n).round(decimals=4).tolist() for n in (0, 1, 3)])
print("shifted T", S.shifted_chebyshev_polynomial_t(torch.tensor([0.0, 0.25, 1.0]), 4).tolist())
print("degree tensor", S.chebyshev_polynomial_t(torch.tensor(0.5), torch.arange(6)).tolist())
print("number x", S.legendre_polynomial_p(0.5, torch.tensor([2, 3])).tolist())
print("negative degree", S.hermite_polynomial_he(x, -1).tolist())
print("int input", S.laguerre_polynomial_l(torch.tensor([0, 1, 2]), 2), S.chebyshev_polynomial_t(x, 3).grad_fn)


class ChebyKANLayer(nn.Module):
    def __init__(self, input_dim, output_dim, degree):
        super(ChebyKANLayer, self).__init__()
        self.inputdim = input_dim
        self.outdim = output_dim
        self.degree = degree
        self.cheby_coeffs = nn.Parameter(torch.empty(input_dim, output_dim, degree + 1))
        nn.init.normal_(self.cheby_coeffs, mean=0.0, std=1 / (input_dim * (degree + 1)))
        self.register_buffer("arange", torch.arange(0, degree + 1, 1))

    def forward(self, x):
        x = torch.tanh(x)
        x = x.view((-1, self.inputdim, 1)).expand(-1, -1, self.degree + 1)
        x = x.acos()
        x *= self.arange
        x = x.cos()
        y = torch.einsum("bid,iod->bo", x, self.cheby_coeffs)
        y = y.view(-1, self.outdim)
        return y


class LegendreKANLayer(nn.Module):
    """The same layer on Legendre polynomials from torch.special (constant in the coefficients only)."""

    def __init__(self, input_dim, output_dim, degree):
        super().__init__()
        self.degree = degree
        self.coeffs = nn.Parameter(torch.randn(input_dim, output_dim, degree + 1) / (input_dim * (degree + 1)))

    def forward(self, x):
        t = torch.tanh(x)
        basis = torch.stack([S.legendre_polynomial_p(t, n) for n in range(self.degree + 1)], dim=-1)
        return torch.einsum("bid,iod->bo", basis, self.coeffs)


xs = torch.linspace(-2, 2, 64).unsqueeze(1)
ys = torch.sin(2 * xs) + 0.3 * xs ** 2
for layer_cls in (ChebyKANLayer, LegendreKANLayer):
    torch.manual_seed(1)
    model = nn.Sequential(layer_cls(1, 6, 4), nn.LayerNorm(6), layer_cls(6, 1, 4))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for step in range(60):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xs), ys)
        loss.backward()
        opt.step()
    print(layer_cls.__name__, "loss", round(loss.item(), 5), "params", sum(p.numel() for p in model.parameters()))

# cos(n acos x) is the Chebyshev polynomial
t = torch.linspace(-0.99, 0.99, 9, dtype=torch.float64)
n = torch.arange(8, dtype=torch.float64).unsqueeze(1)
print("cos(n acos) == T_n", torch.allclose(torch.cos(n * torch.acos(t)), S.chebyshev_polynomial_t(t, n)))

# spectral least squares fit on the Chebyshev basis
grid = torch.cos(math.pi * (torch.arange(32, dtype=torch.float64) + 0.5) / 32)  # Chebyshev nodes
f = torch.exp(grid) * torch.sin(3 * grid)
V = torch.stack([S.chebyshev_polynomial_t(grid, k) for k in range(12)], dim=1)
coef = torch.linalg.lstsq(V, f.unsqueeze(1)).solution.squeeze(1)
print("cheb coefficients", coef[:6].round(decimals=5).tolist())
print("fit residual", f"{(V @ coef - f).abs().max().item():.2e}" if (V @ coef - f).abs().max() < 1e-6 else "large")
print("discrete orthogonality", (V.T @ V)[:3, :3].round(decimals=6).tolist())

# Gauss-Legendre: roots of P_n via the companion (Golub-Welsch) matrix
k = torch.arange(1, 6, dtype=torch.float64)
beta = k / torch.sqrt(4 * k ** 2 - 1)
J = torch.diag(beta, 1) + torch.diag(beta, -1)
nodes, vecs = torch.linalg.eigh(J)
weights = 2 * vecs[0] ** 2
print("GL nodes", nodes.round(decimals=6).tolist())
print("P_6(nodes)", S.legendre_polynomial_p(nodes, 6).abs().max().item() < 1e-12)
print("integral of x^4", round((weights * nodes ** 4).sum().item(), 10), "exact", 2 / 5)


# quantum harmonic oscillator eigenfunctions psi_n(x) = H_n(x) exp(-x^2/2) / sqrt(2^n n! sqrt(pi))
def psi(n, x):
    norm = 1.0 / math.sqrt(2 ** n * math.factorial(n) * math.sqrt(math.pi))
    return norm * S.hermite_polynomial_h(x, n) * torch.exp(-x ** 2 / 2)


xg = torch.linspace(-8, 8, 2001, dtype=torch.float64)
dx = xg[1] - xg[0]
overlap = torch.stack([torch.stack([torch.trapezoid(psi(m, xg) * psi(n, xg), dx=dx) for n in range(4)])
                       for m in range(4)])
print("oscillator overlaps", overlap.round(decimals=6).tolist())
energy = [(n + 0.5) for n in range(4)]
lap = (psi(2, xg[2:]) - 2 * psi(2, xg[1:-1]) + psi(2, xg[:-2])) / dx ** 2
H_psi = -0.5 * lap + 0.5 * xg[1:-1] ** 2 * psi(2, xg[1:-1])
print("E_2", round((H_psi / psi(2, xg[1:-1]))[900:1100:50].mean().item(), 4), energy[2])


# DimeNet radial basis: sqrt(2/c) sin(n pi d / c) / d == sqrt(2/c) n pi / c * j0(n pi d / c)
class BesselBasisLayer(nn.Module):
    def __init__(self, num_radial, cutoff=5.0):
        super().__init__()
        self.cutoff = cutoff
        self.freq = nn.Parameter(torch.arange(1, num_radial + 1).float() * math.pi)

    def forward(self, dist):
        dist = dist.unsqueeze(-1) / self.cutoff
        return math.sqrt(2 / self.cutoff) * self.freq * S.spherical_bessel_j0(self.freq.detach() * dist) / self.cutoff


rbf = BesselBasisLayer(4)
d = torch.tensor([0.0, 0.3, 1.5, 4.9])
out = rbf(d)
print("bessel rbf", out.round(decimals=4).tolist(), out.grad_fn is not None)
print("j0", S.spherical_bessel_j0(torch.tensor([0.0, 1e-4, 0.4, 0.6, math.pi, float("inf")])).tolist())


# GPyTorch's psd_safe_cholesky: add jitter until cholesky_ex reports success
def psd_safe_cholesky(A, upper=False, jitter=None, max_tries=4):
    L, info = torch.linalg.cholesky_ex(A, upper=upper)
    if not torch.any(info):
        return L, 0
    if jitter is None:
        jitter = 1e-6 if A.dtype == torch.float32 else 1e-8
    Aprime = A.clone()
    jitter_prev = 0
    for i in range(max_tries):
        jitter_new = jitter * (10 ** i)
        diag_add = ((info > 0) * (jitter_new - jitter_prev)).unsqueeze(-1).expand(*Aprime.shape[:-1])
        Aprime.diagonal(dim1=-1, dim2=-2).add_(diag_add)
        jitter_prev = jitter_new
        L, info = torch.linalg.cholesky_ex(Aprime, upper=upper)
        if not torch.any(info):
            return L, jitter_new
    raise ValueError(f"Matrix not positive definite after repeatedly adding jitter up to {jitter_new:.1e}.")


X = torch.randn(6, 3, dtype=torch.float64)
K = torch.stack([X @ X.T, torch.exp(-torch.cdist(X, X) ** 2)])  # a rank-3 Gram matrix and an RBF kernel
L0, info0 = torch.linalg.cholesky_ex(K)
print("info", info0.tolist(), "partial diag", L0[0].diagonal()[:3].round(decimals=4).tolist())
L, jit = psd_safe_cholesky(K, jitter=1e-4)
print("jitter", jit, "recon", torch.allclose(L @ L.transpose(-1, -2), K, atol=1e-2))
try:
    torch.linalg.cholesky(K)
except torch.linalg.LinAlgError as e:
    print("LinAlgError:", e)
