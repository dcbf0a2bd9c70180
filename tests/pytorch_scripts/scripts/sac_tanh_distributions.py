"""torch.distributions as SAC / TD3 / continuous-control code uses it (pranz24 and CleanRL's sac_continuous):
a Gaussian actor whose log_std is clamped and tanh-squashed, log_prob with the tanh correction
log(1 - tanh(x)^2 + eps) written by hand and through TransformedDistribution(Normal, TanhTransform(cache_size=1)),
action rescaling through AffineTransform, ComposeTransform, Independent to sum over action dims,
rsample gradients vs sample (no grad_fn), has_rsample / support / arg_constraints, the log-abs-det
Jacobians and inverse of Exp/Sigmoid/Tanh/Affine transforms, LogNormal == TransformedDistribution(Normal,
ExpTransform), the automatic entropy target -dim(A) with a learnable log_alpha, soft target Q updates,
distribution reprs, and validate_args errors."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import (AffineTransform, ComposeTransform, ExpTransform, Independent, LogNormal, Normal,
                                 SigmoidTransform, TanhTransform, TransformedDistribution)

torch.manual_seed(0)
LOG_SIG_MAX, LOG_SIG_MIN, epsilon = 2, -20, 1e-6


class GaussianPolicy(nn.Module):
    def __init__(self, num_inputs, num_actions, hidden_dim, action_low, action_high):
        super().__init__()
        self.linear1 = nn.Linear(num_inputs, hidden_dim)
        self.mean_linear = nn.Linear(hidden_dim, num_actions)
        self.log_std_linear = nn.Linear(hidden_dim, num_actions)
        self.register_buffer("action_scale", torch.FloatTensor((action_high - action_low) / 2.))
        self.register_buffer("action_bias", torch.FloatTensor((action_high + action_low) / 2.))

    def forward(self, state):
        x = F.relu(self.linear1(state))
        mean = self.mean_linear(x)
        log_std = torch.clamp(self.log_std_linear(x), min=LOG_SIG_MIN, max=LOG_SIG_MAX)
        return mean, log_std

    def sample(self, state):
        mean, log_std = self.forward(state)
        std = log_std.exp()
        normal = Normal(mean, std)
        x_t = normal.rsample()
        y_t = torch.tanh(x_t)
        action = y_t * self.action_scale + self.action_bias
        log_prob = normal.log_prob(x_t)
        log_prob -= torch.log(self.action_scale * (1 - y_t.pow(2)) + epsilon)
        log_prob = log_prob.sum(1, keepdim=True)
        mean = torch.tanh(mean) * self.action_scale + self.action_bias
        return action, log_prob, mean, x_t


policy = GaussianPolicy(3, 2, 16, np.array([-2.0, 0.0]), np.array([2.0, 1.0]))
print(policy.action_scale, policy.action_bias, policy.action_scale.dtype)
state = torch.randn(5, 3)
action, log_prob, mean, x_t = policy.sample(state)
print(action.shape, log_prob.shape, log_prob.grad_fn.name(), bool((action[:, 1] >= 0).all()), bool((action[:, 1] <= 1).all()))
mu, log_std = policy(state)
base = Normal(mu, log_std.exp())
squashed = TransformedDistribution(base, [TanhTransform(cache_size=1),
                                          AffineTransform(policy.action_bias, policy.action_scale)])
lp2 = squashed.log_prob(action).sum(1, keepdim=True)
print("tanh-corrected log_prob:", torch.allclose(lp2, log_prob, atol=1e-3), squashed.has_rsample, type(squashed.support).__name__)
a2 = squashed.rsample()
print("rsample grad_fn", a2.grad_fn is not None, "sample grad_fn", squashed.sample().grad_fn, a2.shape)
ind = Independent(Normal(mu, log_std.exp()), 1)
print(ind.batch_shape, ind.event_shape, torch.allclose(ind.log_prob(x_t), base.log_prob(x_t).sum(-1)))
x = torch.tensor([-1.0, 0.0, 0.5, 2.0])
for t in (ExpTransform(), SigmoidTransform(), TanhTransform(), AffineTransform(1.0, 3.0)):
    y = t(x)
    print(type(t).__name__, [round(v, 5) for v in t.log_abs_det_jacobian(x, y).tolist()],
          torch.allclose(t.inv(y), x, atol=1e-4), t.sign if hasattr(t, "sign") else None, t.bijective)
comp = ComposeTransform([AffineTransform(0.0, 2.0), SigmoidTransform()])
y = comp(x)
print("compose", [round(v, 5) for v in y.tolist()], [round(v, 4) for v in comp.log_abs_det_jacobian(x, y).tolist()])
ln = LogNormal(torch.tensor(0.5), torch.tensor(0.8))
tln = TransformedDistribution(Normal(torch.tensor(0.5), torch.tensor(0.8)), ExpTransform())
v = torch.tensor([0.3, 1.0, 4.0])
print("lognormal", torch.allclose(ln.log_prob(v), tln.log_prob(v)), round(ln.mean.item(), 5), round(ln.variance.item(), 5),
      round(ln.entropy().item(), 5))
print(ln, Normal(torch.zeros(2), torch.ones(2)))
target_entropy = -torch.prod(torch.Tensor([2])).item()
log_alpha = torch.zeros(1, requires_grad=True)
alpha_optim = torch.optim.Adam([log_alpha], lr=3e-4)
alpha_loss = -(log_alpha * (log_prob + target_entropy).detach()).mean()
alpha_optim.zero_grad()
alpha_loss.backward()
alpha_optim.step()
print("target entropy", target_entropy, "alpha", round(log_alpha.exp().item(), 6), alpha_loss.grad_fn.name())
q, q_target = nn.Linear(5, 1), nn.Linear(5, 1)
q_target.load_state_dict(q.state_dict())
with torch.no_grad():
    q.weight.add_(1.0)
tau = 0.005


def soft_update(target, source, tau):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(target_param.data * (1.0 - tau) + param.data * tau)


soft_update(q_target, q, tau)
print("soft update", torch.allclose(q_target.weight, q.weight - 1.0 + tau), q_target.weight.requires_grad)
print(Normal.arg_constraints, Normal(0.0, 1.0).support)
try:
    Normal(torch.tensor([0.0]), torch.tensor([-1.0]), validate_args=True)
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0])
try:
    Normal(0.0, 1.0, validate_args=True).log_prob(torch.tensor(float("nan")))
except ValueError as e:
    print("ValueError:", str(e)[:90])
print(round(Normal(0.0, 1.0).cdf(torch.tensor(1.0)).item(), 6), round(Normal(0.0, 1.0).icdf(torch.tensor(0.975)).item(), 5),
      round(Normal(1.0, 2.0).entropy().item(), 6), round(0.5 * math.log(2 * math.pi * math.e * 4), 6))
