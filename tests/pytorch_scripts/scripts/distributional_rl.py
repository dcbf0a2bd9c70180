"""Distributional RL losses as Kaixhin/Rainbow, the C51 and QR-DQN reference implementations
write them: the categorical projection of the Bellman target onto fixed atoms with floor/ceil and
index_add_ on a flattened offset index (and the scatter_add_ variant), the QR-DQN quantile Huber
loss with tau-hat midpoints and pairwise broadcasting, IQN cosine embeddings of sampled taus,
noisy linear layers with factorised Gaussian noise, n-step returns and a dueling head."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
batch, n_actions, atoms = 6, 3, 11
V_min, V_max = -5.0, 5.0
support = torch.linspace(V_min, V_max, atoms)
delta_z = (V_max - V_min) / (atoms - 1)


class NoisyLinear(nn.Module):
    def __init__(self, in_features, out_features, std_init=0.5):
        super(NoisyLinear, self).__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.std_init = std_init
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features))
        self.weight_sigma = nn.Parameter(torch.empty(out_features, in_features))
        self.register_buffer("weight_epsilon", torch.empty(out_features, in_features))
        self.bias_mu = nn.Parameter(torch.empty(out_features))
        self.bias_sigma = nn.Parameter(torch.empty(out_features))
        self.register_buffer("bias_epsilon", torch.empty(out_features))
        self.reset_parameters()
        self.reset_noise()

    def reset_parameters(self):
        mu_range = 1 / math.sqrt(self.in_features)
        self.weight_mu.data.uniform_(-mu_range, mu_range)
        self.weight_sigma.data.fill_(self.std_init / math.sqrt(self.in_features))
        self.bias_mu.data.uniform_(-mu_range, mu_range)
        self.bias_sigma.data.fill_(self.std_init / math.sqrt(self.out_features))

    def _scale_noise(self, size):
        x = torch.randn(size)
        return x.sign().mul_(x.abs().sqrt_())

    def reset_noise(self):
        epsilon_in = self._scale_noise(self.in_features)
        epsilon_out = self._scale_noise(self.out_features)
        self.weight_epsilon.copy_(epsilon_out.ger(epsilon_in))
        self.bias_epsilon.copy_(epsilon_out)

    def forward(self, input):
        if self.training:
            return F.linear(input, self.weight_mu + self.weight_sigma * self.weight_epsilon,
                            self.bias_mu + self.bias_sigma * self.bias_epsilon)
        return F.linear(input, self.weight_mu, self.bias_mu)


class DuelingC51(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.fc = nn.Linear(obs_dim, 32)
        self.fc_h_v, self.fc_h_a = NoisyLinear(32, 32), NoisyLinear(32, 32)
        self.fc_z_v, self.fc_z_a = NoisyLinear(32, atoms), NoisyLinear(32, n_actions * atoms)

    def forward(self, x, log=False):
        x = F.relu(self.fc(x))
        v = self.fc_z_v(F.relu(self.fc_h_v(x)))
        a = self.fc_z_a(F.relu(self.fc_h_a(x)))
        v, a = v.view(-1, 1, atoms), a.view(-1, n_actions, atoms)
        q = v + a - a.mean(1, keepdim=True)
        return F.log_softmax(q, dim=2) if log else F.softmax(q, dim=2)

    def reset_noise(self):
        for name, module in self.named_children():
            if "fc_" in name:
                module.reset_noise()


online, target = DuelingC51(4), DuelingC51(4)
target.load_state_dict(online.state_dict())
print("noisy buffers", [n for n, _ in online.named_buffers()][:2], "params", sum(p.numel() for p in online.parameters()))
states, next_states = torch.randn(batch, 4), torch.randn(batch, 4)
actions = torch.randint(0, n_actions, (batch,))
rewards = torch.randn(batch)
nonterminal = (torch.rand(batch) > 0.2).float().unsqueeze(1)
gamma_n = 0.99 ** 3

optimiser = torch.optim.Adam(online.parameters(), lr=1e-3, eps=1.5e-4)
for step in range(5):
    log_ps = online(states, log=True)
    log_ps_a = log_ps[range(batch), actions]
    with torch.no_grad():
        pns = online(next_states)
        dns = support.expand_as(pns) * pns
        argmax_indices_ns = dns.sum(2).argmax(1)
        target.reset_noise()
        pns = target(next_states)
        pns_a = pns[range(batch), argmax_indices_ns]
        Tz = rewards.unsqueeze(1) + nonterminal * gamma_n * support.unsqueeze(0)
        Tz = Tz.clamp(min=V_min, max=V_max)
        b = (Tz - V_min) / delta_z
        l, u = b.floor().to(torch.int64), b.ceil().to(torch.int64)
        l[(u > 0) * (l == u)] -= 1
        u[(l < (atoms - 1)) * (l == u)] += 1
        m = states.new_zeros(batch, atoms)
        offset = torch.linspace(0, ((batch - 1) * atoms), batch).unsqueeze(1).expand(batch, atoms).to(actions)
        m.view(-1).index_add_(0, (l + offset).view(-1), (pns_a * (u.float() - b)).view(-1))
        m.view(-1).index_add_(0, (u + offset).view(-1), (pns_a * (b - l.float())).view(-1))
    loss = -torch.sum(m * log_ps_a, 1)
    online.zero_grad()
    loss.mean().backward()
    nn.utils.clip_grad_norm_(online.parameters(), 10)
    optimiser.step()
    online.reset_noise()
    print(f"step {step}: loss {loss.mean().item():.4f} target mass {m.sum(1).mean().item():.4f}")

# scatter_add_ form of the same projection
m2 = torch.zeros(batch, atoms)
m2.scatter_add_(1, l, pns_a * (u.float() - b))
m2.scatter_add_(1, u, pns_a * (b - l.float()))
print("projection forms agree", torch.allclose(m, m2, atol=1e-6), "expected values", (m2 * support).sum(1).round(decimals=3).tolist())
online.eval()
q_values = (online(states) * support).sum(2)
print("greedy actions", q_values.argmax(1).tolist(), "eval deterministic", torch.equal(online(states), online(states)))

# QR-DQN quantile Huber loss
N = 8
tau = (torch.arange(N, dtype=torch.float32) + 0.5) / N
quantiles = torch.randn(batch, N, requires_grad=True)
target_q = torch.randn(batch, N)


def quantile_huber_loss(current, target, tau, kappa=1.0):
    td = target.unsqueeze(1) - current.unsqueeze(2)  # [B, N, N']
    huber = torch.where(td.abs() <= kappa, 0.5 * td.pow(2), kappa * (td.abs() - 0.5 * kappa))
    weight = torch.abs(tau.view(1, -1, 1) - (td.detach() < 0).float())
    return (weight * huber / kappa).sum(1).mean(1).mean()


qloss = quantile_huber_loss(quantiles, target_q, tau)
qloss.backward()
print("quantile huber", round(qloss.item(), 4), "grad", quantiles.grad[0, :4].round(decimals=4).tolist())
huber_ref = F.huber_loss(quantiles.detach().unsqueeze(2).expand(-1, -1, N), target_q.unsqueeze(1).expand(-1, N, -1), reduction="none", delta=1.0)
td = target_q.unsqueeze(1) - quantiles.detach().unsqueeze(2)
print("huber matches F.huber_loss", torch.allclose(huber_ref, torch.where(td.abs() <= 1, 0.5 * td ** 2, td.abs() - 0.5)))

# IQN: cosine embedding of sampled quantile fractions
taus = torch.rand(batch, 5, 1)
i_pi = math.pi * torch.arange(1, 17, dtype=torch.float32).view(1, 1, 16)
cos = torch.cos(taus * i_pi)
phi = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
emb = phi(cos)
state_emb = torch.randn(batch, 1, 32)
print("iqn", tuple((emb * state_emb).shape), round(cos.mean().item(), 4), round(emb.mean().item(), 4))

# n-step discounted returns with a reversed cumulative loop and with a discount matrix
rew = torch.tensor([[1.0, 0.0, 2.0, 1.0], [0.5, 0.5, 0.5, 0.5]])
g = 0.9
ret = torch.zeros_like(rew)
running = torch.zeros(2)
for t in reversed(range(rew.size(1))):
    running = rew[:, t] + g * running
    ret[:, t] = running
T = rew.size(1)
disc = torch.triu(g ** (torch.arange(T).view(1, -1) - torch.arange(T).view(-1, 1)).clamp(min=0).float())
print("returns", ret.round(decimals=4).tolist(), torch.allclose(ret, rew @ disc.t()))
