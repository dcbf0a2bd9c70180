# REINFORCE and actor-critic in the style of PyTorch's examples/reinforcement_learning
# (reinforce.py, actor_critic.py), on a corridor gridworld written here (no gym), plus a Gaussian
# policy on a continuous bandit and a VAE-style KL term. Actions are sampled, so what is printed is
# what does not depend on the random stream: values at fixed inputs, and what training reliably learns.
from collections import namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical, Independent, Normal, kl_divergence

torch.manual_seed(543)
eps = np.finfo(np.float32).eps.item()
gamma = 0.95


class Corridor:
    """Positions 0..4; actions 0 (left) and 1 (right); reaching 4 gives reward 1 and ends the episode."""

    def __init__(self, length=5):
        self.length = length

    def reset(self):
        self.position = 0
        return self.observe()

    def observe(self):
        return np.eye(self.length, dtype=np.float32)[self.position]

    def step(self, action):
        self.position = max(0, min(self.length - 1, self.position + (1 if action == 1 else -1)))
        done = self.position == self.length - 1
        return self.observe(), (1.0 if done else -0.05), done


def init_deterministic(module):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape).roll(3 * i))


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(5, 32)
        self.dropout = nn.Dropout(p=0.0)
        self.affine2 = nn.Linear(32, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)


policy = Policy()
init_deterministic(policy)
optimizer = optim.Adam(policy.parameters(), lr=2e-2)

# Values at fixed inputs: these do not depend on sampling.
state = torch.from_numpy(Corridor().reset()).float().unsqueeze(0)
m = Categorical(policy(state))
print("probs", m.probs)
print("log_prob", m.log_prob(torch.tensor([0])), m.log_prob(torch.tensor([1])))
print("entropy", m.entropy(), "batch_shape", m.batch_shape, "event_shape", m.event_shape)
print("sample shape", m.sample().shape, m.sample((3,)).shape, m.sample().dtype)


def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps) if len(returns) > 1 else returns
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]


env = Corridor()
running_steps = 40.0
for i_episode in range(1, 301):
    state, ep_steps = env.reset(), 0
    for t in range(1, 40):
        action = select_action(state)
        state, reward, done = env.step(action)
        policy.rewards.append(reward)
        ep_steps = t
        if done:
            break
    running_steps = 0.05 * ep_steps + 0.95 * running_steps
    finish_episode()
    if running_steps < 6:
        break
print("REINFORCE solved:", running_steps < 6)
with torch.no_grad():
    print("greedy actions", policy(torch.eye(5)).argmax(dim=1)[:4].tolist())

# actor-critic: a shared body with an action head and a value head
SavedAction = namedtuple("SavedAction", ["log_prob", "value"])


class ActorCritic(nn.Module):
    def __init__(self):
        super(ActorCritic, self).__init__()
        self.affine1 = nn.Linear(5, 32)
        self.action_head = nn.Linear(32, 2)
        self.value_head = nn.Linear(32, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        return F.softmax(self.action_head(x), dim=-1), self.value_head(x)


model = ActorCritic()
init_deterministic(model)
ac_optimizer = optim.Adam(model.parameters(), lr=2e-2)
probs, value = model(torch.eye(5))
print("actor-critic start", probs[0], value[:2, 0])

for i_episode in range(1, 301):
    state, ep_steps = env.reset(), 0
    for t in range(1, 40):
        probs, state_value = model(torch.from_numpy(state).float())
        m = Categorical(probs)
        action = m.sample()
        model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
        state, reward, done = env.step(action.item())
        model.rewards.append(reward)
        ep_steps = t
        if done:
            break
    R, returns = 0, []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    policy_losses, value_losses = [], []
    for (log_prob, value), R in zip(model.saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    ac_optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    ac_optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]
    running_steps = 0.05 * ep_steps + 0.95 * (running_steps if i_episode > 1 else 40.0)
    if running_steps < 6:
        break
print("actor-critic solved:", running_steps < 6)
with torch.no_grad():
    probs, values = model(torch.eye(5))
    print("actor-critic greedy", probs.argmax(-1)[:4].tolist(), "values increase toward the goal:",
          bool((values[1:4, 0] > values[0:3, 0]).all()))

# a Gaussian policy (loc and log-std parameters) on a continuous bandit: reward -(a - 2)^2
mu = torch.zeros(2, requires_grad=True)
log_std = torch.zeros(2, requires_grad=True)
bandit_optimizer = optim.Adam([mu, log_std], lr=0.05)
dist = Independent(Normal(mu, log_std.exp()), 1)
print("gaussian", dist.batch_shape, dist.event_shape, dist.log_prob(torch.tensor([0.5, -0.5])), dist.entropy())
for step in range(300):
    dist = Independent(Normal(mu, log_std.exp()), 1)
    actions = dist.sample((64,))
    rewards = -((actions - torch.tensor([2.0, -1.0])) ** 2).sum(-1)
    advantages = rewards - rewards.mean()
    loss = -(dist.log_prob(actions) * advantages).mean()
    bandit_optimizer.zero_grad()
    loss.backward()
    bandit_optimizer.step()
print("gaussian policy found the optimum:", bool(((mu - torch.tensor([2.0, -1.0])).abs() < 0.3).all()),
      "and narrowed:", bool((log_std < 0).all()))

# reparameterised sampling and a VAE-style KL term, with gradients through both
loc = torch.tensor([0.5, -1.0], requires_grad=True)
scale = torch.tensor([1.5, 0.5], requires_grad=True)
q = Normal(loc, scale)
z = q.rsample((1000,))
kl = kl_divergence(q, Normal(torch.zeros(2), torch.ones(2))).sum()
kl.backward()
print("kl", kl, "grads", loc.grad, scale.grad)
print("rsample", z.shape, z.requires_grad, z.grad_fn is not None)
