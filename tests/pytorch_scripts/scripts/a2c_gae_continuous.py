"""Advantage actor-critic on a batched continuous-control toy environment written in torch (as in
minimal RL repos and the CleanRL style): a Gaussian policy with a state-independent log_std parameter,
Independent(Normal) log_prob / entropy, tanh squashing with the log-det correction, GAE(lambda) computed
backwards over the rollout with done masks, advantage normalisation, value loss clipping, an entropy bonus,
clip_grad_norm_, LinearLR annealing, and a REINFORCE baseline with Categorical on a bandit."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Independent, Normal

torch.manual_seed(23)


class PointEnv:
    """Move a point towards the origin; reward is minus the distance; an episode lasts 16 steps."""

    def __init__(self, n):
        self.n = n
        self.pos = torch.zeros(n, 2)
        self.t = torch.zeros(n, dtype=torch.long)

    def reset(self):
        self.pos = torch.rand(self.n, 2) * 4 - 2
        self.t.zero_()
        return self.pos.clone()

    def step(self, action):
        self.pos = self.pos + 0.2 * action.clamp(-1, 1)
        self.t += 1
        reward = -self.pos.norm(dim=1)
        done = self.t >= 16
        obs = self.pos.clone()
        if done.any():
            self.pos[done] = torch.rand(int(done.sum()), 2) * 4 - 2
            self.t[done] = 0
            obs = self.pos.clone()
        return obs, reward, done.float()


def layer_init(layer, std=2 ** 0.5, bias_const=0.0):
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(2, 32)), nn.Tanh(), layer_init(nn.Linear(32, 1), std=1.0))
        self.actor_mean = nn.Sequential(layer_init(nn.Linear(2, 32)), nn.Tanh(), layer_init(nn.Linear(32, 2), std=0.01))
        self.actor_logstd = nn.Parameter(torch.zeros(1, 2))

    def get_value(self, x):
        return self.critic(x).squeeze(-1)

    def get_action_and_value(self, x, action=None):
        mean = self.actor_mean(x)
        std = self.actor_logstd.expand_as(mean).exp()
        dist = Independent(Normal(mean, std), 1)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.get_value(x)


def compute_gae(rewards, values, dones, next_value, next_done, gamma=0.99, lam=0.95):
    T = rewards.size(0)
    advantages = torch.zeros_like(rewards)
    lastgaelam = 0
    for t in reversed(range(T)):
        if t == T - 1:
            nextnonterminal = 1.0 - next_done
            nextvalues = next_value
        else:
            nextnonterminal = 1.0 - dones[t + 1]
            nextvalues = values[t + 1]
        delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
        advantages[t] = lastgaelam = delta + gamma * lam * nextnonterminal * lastgaelam
    return advantages, advantages + values


n_envs, n_steps = 8, 16
env = PointEnv(n_envs)
agent = Agent()
optimizer = torch.optim.Adam(agent.parameters(), lr=3e-3, eps=1e-5)
scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=1.0, end_factor=0.1, total_iters=12)
obs = env.reset()
done = torch.zeros(n_envs)
for update in range(12):
    b_obs, b_act, b_logp, b_rew, b_done, b_val = [], [], [], [], [], []
    for step in range(n_steps):
        with torch.no_grad():
            action, logp, _, value = agent.get_action_and_value(obs)
        b_obs.append(obs)
        b_done.append(done)
        b_val.append(value)
        b_act.append(action)
        b_logp.append(logp)
        obs, reward, done = env.step(action)
        b_rew.append(reward)
    with torch.no_grad():
        next_value = agent.get_value(obs)
    rewards, values, dones = torch.stack(b_rew), torch.stack(b_val), torch.stack(b_done)
    advantages, returns = compute_gae(rewards, values, dones, next_value, done)
    flat = lambda xs: torch.stack(xs).reshape(n_envs * n_steps, *torch.stack(xs).shape[2:])
    mb_obs, mb_act = flat(b_obs), flat(b_act)
    mb_adv, mb_ret, mb_val = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
    _, newlogp, entropy, newvalue = agent.get_action_and_value(mb_obs, mb_act)
    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
    pg_loss = -(mb_adv * newlogp).mean()
    v_clipped = mb_val + torch.clamp(newvalue - mb_val, -0.2, 0.2)
    v_loss = 0.5 * torch.max((newvalue - mb_ret) ** 2, (v_clipped - mb_ret) ** 2).mean()
    loss = pg_loss - 0.01 * entropy.mean() + 0.5 * v_loss
    optimizer.zero_grad()
    loss.backward()
    grad_norm = nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
    optimizer.step()
    scheduler.step()
    if update % 3 == 2:
        print(f"update {update + 1} return {rewards.sum(0).mean().item():.3f} pg {pg_loss.item():.4f} v {v_loss.item():.4f} "
              f"ent {entropy.mean().item():.4f} grad {grad_norm.item():.3f} lr {scheduler.get_last_lr()[0]:.5f}")
print("log_std", agent.actor_logstd.data)

mean, log_std = torch.tensor([[0.3, -2.0]]), torch.tensor([[-0.5, 0.1]])
base = Normal(mean, log_std.exp())
u = base.rsample()
a = torch.tanh(u)
logp = base.log_prob(u).sum(-1) - (2 * (torch.log(torch.tensor(2.0)) - u - F.softplus(-2 * u))).sum(-1)
logp_naive = base.log_prob(u).sum(-1) - torch.log(1 - a.pow(2) + 1e-6).sum(-1)
print("tanh squash", a, logp, logp_naive)

true_means = torch.tensor([0.1, 0.5, 0.9, 0.3])
logits = torch.zeros(4, requires_grad=True)
opt = torch.optim.SGD([logits], lr=0.5)
baseline = 0.0
for it in range(200):
    dist = Categorical(logits=logits)
    arms = dist.sample((16,))
    rewards = torch.bernoulli(true_means[arms])
    baseline = 0.9 * baseline + 0.1 * rewards.mean().item()
    loss = -((rewards - baseline) * dist.log_prob(arms)).mean() - 0.01 * dist.entropy()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("bandit probs", F.softmax(logits, 0).detach(), "baseline", round(baseline, 4))
