# pytorch/examples reinforcement_learning/actor_critic.py with a tiny deterministic corridor
# environment instead of gym: SavedAction namedtuple, Categorical sampling, smooth_l1_loss on values,
# returns normalised with np.finfo(np.float32).eps, running reward.
from collections import namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)
SavedAction = namedtuple('SavedAction', ['log_prob', 'value'])
gamma = 0.99


class Corridor:
    """Walk right to the goal; observation is (position, velocity-like features)."""

    def __init__(self, length=5):
        self.length = length

    def reset(self):
        self.pos = 0
        self.t = 0
        return np.array([0.0, 1.0, 0.0, 0.5], dtype=np.float32)

    def step(self, action):
        self.t += 1
        self.pos = max(0, self.pos + (1 if action == 1 else -1))
        done = self.pos >= self.length or self.t >= 12
        reward = 1.0 if self.pos >= self.length else -0.1
        state = np.array([self.pos / self.length, 1.0 - self.pos / self.length, self.t / 12, 0.5], dtype=np.float32)
        return state, reward, done, {}


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16)
        self.action_head = nn.Linear(16, 2)
        self.value_head = nn.Linear(16, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values


model = Policy()
optimizer = optim.Adam(model.parameters(), lr=3e-2)
eps = np.finfo(np.float32).eps.item()


def select_action(state):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()


def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses = []
    value_losses = []
    returns = []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]
    return loss.item()


env = Corridor()
running_reward = 10
for i_episode in range(1, 9):
    state, ep_reward = env.reset(), 0
    actions = []
    for t in range(1, 100):
        action = select_action(state)
        actions.append(action)
        state, reward, done, _ = env.step(action)
        model.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}\tloss {:.4f}\tactions {}'.format(
        i_episode, ep_reward, running_reward, loss, ''.join(map(str, actions))))
with torch.no_grad():
    probs, value = model(torch.tensor([0.4, 0.6, 0.25, 0.5]))
print('final probs', [round(p, 4) for p in probs.tolist()], 'value', round(value.item(), 4))
print('eps', eps)
