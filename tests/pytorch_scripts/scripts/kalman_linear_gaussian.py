"""Linear-Gaussian state-space code as in filterpy ports and probabilistic-ML notebooks, batched with
torch: a Kalman filter and RTS smoother with cholesky / cholesky_solve / solve_triangular, the log
likelihood through MultivariateNormal(scale_tril=), baddbmm / addmm / addcmul updates, polynomial
regression with torch.vander and linalg.lstsq, Bayesian linear regression posterior with cholesky_inverse,
masked_scatter to fill observations, and gradient-based fitting of the noise scales."""
import math

import torch
from torch.distributions import MultivariateNormal

torch.manual_seed(21)
torch.set_default_dtype(torch.float64)

dt = 0.1
F_mat = torch.tensor([[1.0, dt], [0.0, 1.0]])
H = torch.tensor([[1.0, 0.0]])
T = 24
true_x = torch.zeros(T, 2)
true_x[0] = torch.tensor([0.0, 1.0])
for t in range(1, T):
    true_x[t] = F_mat @ true_x[t - 1] + torch.tensor([0.0, 0.05]) * torch.randn(2)
obs = true_x[:, :1] + 0.3 * torch.randn(T, 1)


def kalman_filter(obs, q_scale, r_scale):
    Q = q_scale ** 2 * torch.tensor([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
    R = (r_scale ** 2).view(1, 1)
    x = torch.zeros(2)
    P = torch.eye(2)
    means, covs, preds, pred_covs = [], [], [], []
    log_lik = torch.zeros(())
    for y in obs:
        x_pred = F_mat @ x
        P_pred = torch.addmm(Q, F_mat @ P, F_mat.T)
        preds.append(x_pred)
        pred_covs.append(P_pred)
        S = H @ P_pred @ H.T + R
        L = torch.linalg.cholesky(S)
        log_lik = log_lik + MultivariateNormal(H @ x_pred, scale_tril=L).log_prob(y)
        K = torch.cholesky_solve((P_pred @ H.T).T, L).T
        x = x_pred + K @ (y - H @ x_pred)
        I_KH = torch.eye(2) - K @ H
        P = I_KH @ P_pred @ I_KH.T + K @ R @ K.T
        means.append(x)
        covs.append(P)
    return torch.stack(means), torch.stack(covs), torch.stack(preds), torch.stack(pred_covs), log_lik


def rts_smoother(means, covs, preds, pred_covs):
    xs, Ps = [means[-1]], [covs[-1]]
    for t in range(len(means) - 2, -1, -1):
        G = torch.linalg.solve(pred_covs[t + 1], F_mat @ covs[t]).T
        xs.insert(0, means[t] + G @ (xs[0] - preds[t + 1]))
        Ps.insert(0, covs[t] + G @ (Ps[0] - pred_covs[t + 1]) @ G.T)
    return torch.stack(xs), torch.stack(Ps)


q = torch.tensor(0.5, requires_grad=True)
r = torch.tensor(1.0, requires_grad=True)
means, covs, preds, pred_covs, ll = kalman_filter(obs, q, r)
smoothed, smoothed_P = rts_smoother(means, covs, preds, pred_covs)
print("filter rmse", (means[:, 0] - true_x[:, 0]).pow(2).mean().sqrt().item(),
      "smoother rmse", (smoothed[:, 0] - true_x[:, 0]).pow(2).mean().sqrt().item())
print("log likelihood", ll.item(), "final cov", covs[-1])
ll.backward()
print("grads", q.grad.item(), r.grad.item())
opt = torch.optim.Adam([q, r], lr=0.05)
for it in range(10):
    opt.zero_grad()
    loss = -kalman_filter(obs, q, r)[-1]
    loss.backward()
    opt.step()
print("fitted scales", q.item(), r.item(), "nll", loss.item())

x = torch.linspace(-1, 1, 25)
y = 0.5 - x + 2 * x ** 3 + 0.1 * torch.randn(25)
V = torch.vander(x, N=4, increasing=True)
print("vander", V[:2])
sol = torch.linalg.lstsq(V, y.unsqueeze(1))
print("lstsq coeffs", sol.solution.squeeze(1), "rank", sol.rank)
print("normal equations", torch.linalg.solve(V.T @ V, V.T @ y))

alpha, beta = 1.0, 100.0
S_inv = alpha * torch.eye(4) + beta * V.T @ V
L = torch.linalg.cholesky(S_inv)
S = torch.cholesky_inverse(L)
m = beta * S @ V.T @ y
print("posterior mean", m, "\nposterior std", S.diagonal().sqrt())
z = torch.linalg.solve_triangular(L, (V.T @ y).unsqueeze(1), upper=False)
print("solve_triangular", torch.linalg.solve_triangular(L.T, z, upper=True).squeeze(1) * beta)
x_new = torch.vander(torch.tensor([0.0, 0.5]), N=4, increasing=True)
pred_var = 1 / beta + (x_new @ S * x_new).sum(-1)
print("predictive", x_new @ m, pred_var)

batch_P = torch.eye(2).expand(3, 2, 2).clone()
batch_F = F_mat.expand(3, 2, 2)
print("baddbmm", torch.baddbmm(0.01 * torch.eye(2).expand(3, 2, 2), batch_F @ batch_P, batch_F.transpose(1, 2), beta=2.0, alpha=0.5)[0])
print("addcmul", torch.addcmul(torch.ones(3), torch.arange(3.0), torch.arange(3.0), value=0.5),
      "addcdiv", torch.addcdiv(torch.ones(3), torch.ones(3), torch.arange(1.0, 4.0), value=2))
missing = torch.tensor([False, True, False, True, True])
series = torch.tensor([1.0, 0.0, 3.0, 0.0, 0.0])
print("masked_scatter", series.masked_scatter(missing, torch.tensor([10.0, 20.0, 30.0, 40.0])))
print("mvn", MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]])).entropy().item(),
      MultivariateNormal(torch.zeros(2), precision_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]])).scale_tril)
print("logdet", torch.logdet(S_inv).item(), 2 * L.diagonal().log().sum().item(), math.log(torch.det(S_inv).item()))
torch.set_default_dtype(torch.float32)
