"""PPO as CleanRL's ppo.py writes it, on a toy 1-D environment: layer_init with orthogonal_ and
constant_ bias, an Agent with get_action_and_value over Categorical (log_prob, entropy), a
continuous actor with Normal and a state-independent actor_logstd expanded to the mean, GAE computed
backwards with nextnonterminal masks, minibatch indices from np.random.permutation, the clipped
surrogate loss with ratio = exp(newlogprob - oldlogprob), approx_kl and clipfracs under no_grad,
clipped value loss, advantage normalisation and clip_grad_norm_."""
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.distributions.categorical import Categorical
from torch.distributions.normal import Normal

torch.manual_seed(1)
np.random.seed(1)
torch.backends.cudnn.deterministic = True
device = torch.device("cpu")


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 16)),
            nn.Tanh(),
            layer_init(nn.Linear(16, 16)),
            nn.Tanh(),
            layer_init(nn.Linear(16, 1), std=1.0),
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 16)),
            nn.Tanh(),
            layer_init(nn.Linear(16, 16)),
            nn.Tanh(),
            layer_init(nn.Linear(16, n_actions), std=0.01),
        )

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


class ContinuousAgent(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 16)), nn.Tanh(), layer_init(nn.Linear(16, 1), std=1.0))
        self.actor_mean = nn.Sequential(layer_init(nn.Linear(obs_dim, 16)), nn.Tanh(), layer_init(nn.Linear(16, act_dim), std=0.01))
        self.actor_logstd = nn.Parameter(torch.zeros(1, act_dim))

    def get_action_and_value(self, x, action=None):
        action_mean = self.actor_mean(x)
        action_logstd = self.actor_logstd.expand_as(action_mean)
        action_std = torch.exp(action_logstd)
        probs = Normal(action_mean, action_std)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(x)


class LineEnv:
    """num_envs walkers on [-3, 3]; action 0 moves left, 1 right; reward for reaching +3."""
    def __init__(self, num_envs):
        self.pos = np.zeros(num_envs)

    def obs(self):
        return np.stack([self.pos / 3.0, np.ones_like(self.pos)], 1).astype(np.float32)

    def step(self, action):
        self.pos += np.where(action == 1, 1.0, -1.0)
        done = np.abs(self.pos) >= 3
        reward = np.where(self.pos >= 3, 1.0, -0.01)
        self.pos[done] = 0.0
        return self.obs(), reward, done


num_envs, num_steps, gamma, gae_lambda = 4, 16, 0.99, 0.95
batch_size = num_envs * num_steps
minibatch_size, update_epochs, clip_coef, ent_coef, vf_coef, max_grad_norm = 16, 2, 0.2, 0.01, 0.5, 0.5
env = LineEnv(num_envs)
agent = Agent(2, 2).to(device)
optimizer = optim.Adam(agent.parameters(), lr=2.5e-3, eps=1e-5)
obs = torch.zeros((num_steps, num_envs, 2)).to(device)
actions = torch.zeros((num_steps, num_envs)).to(device)
logprobs = torch.zeros((num_steps, num_envs)).to(device)
rewards = torch.zeros((num_steps, num_envs)).to(device)
dones = torch.zeros((num_steps, num_envs)).to(device)
values = torch.zeros((num_steps, num_envs)).to(device)
next_obs = torch.Tensor(env.obs()).to(device)
next_done = torch.zeros(num_envs).to(device)

for iteration in range(1, 4):
    frac = 1.0 - (iteration - 1.0) / 3
    optimizer.param_groups[0]["lr"] = frac * 2.5e-3
    for step in range(0, num_steps):
        obs[step] = next_obs
        dones[step] = next_done
        with torch.no_grad():
            action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
        actions[step] = action
        logprobs[step] = logprob
        next_obs, reward, next_done = env.step(action.cpu().numpy())
        rewards[step] = torch.tensor(reward).to(device).view(-1)
        next_obs, next_done = torch.Tensor(next_obs).to(device), torch.Tensor(next_done).to(device)
    with torch.no_grad():
        next_value = agent.get_value(next_obs).reshape(1, -1)
        advantages = torch.zeros_like(rewards).to(device)
        lastgaelam = 0
        for t in reversed(range(num_steps)):
            if t == num_steps - 1:
                nextnonterminal = 1.0 - next_done
                nextvalues = next_value
            else:
                nextnonterminal = 1.0 - dones[t + 1]
                nextvalues = values[t + 1]
            delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
            advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
        returns = advantages + values
    b_obs = obs.reshape((-1, 2))
    b_logprobs = logprobs.reshape(-1)
    b_actions = actions.reshape((-1,))
    b_advantages = advantages.reshape(-1)
    b_returns = returns.reshape(-1)
    b_values = values.reshape(-1)
    b_inds = np.arange(batch_size)
    clipfracs = []
    for epoch in range(update_epochs):
        np.random.shuffle(b_inds)
        for start in range(0, batch_size, minibatch_size):
            end = start + minibatch_size
            mb_inds = b_inds[start:end]
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb_inds], b_actions.long()[mb_inds])
            logratio = newlogprob - b_logprobs[mb_inds]
            ratio = logratio.exp()
            with torch.no_grad():
                old_approx_kl = (-logratio).mean()
                approx_kl = ((ratio - 1) - logratio).mean()
                clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]
            mb_advantages = b_advantages[mb_inds]
            mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
            pg_loss1 = -mb_advantages * ratio
            pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
            pg_loss = torch.max(pg_loss1, pg_loss2).mean()
            newvalue = newvalue.view(-1)
            v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
            v_clipped = b_values[mb_inds] + torch.clamp(newvalue - b_values[mb_inds], -clip_coef, clip_coef)
            v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
            v_loss_max = torch.max(v_loss_unclipped, v_loss_clipped)
            v_loss = 0.5 * v_loss_max.mean()
            entropy_loss = entropy.mean()
            loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), max_grad_norm)
            optimizer.step()
    y_pred, y_true = b_values.cpu().numpy(), b_returns.cpu().numpy()
    var_y = np.var(y_true)
    explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
    print(iteration, f"{v_loss.item():.5f} {pg_loss.item():.5f} {entropy_loss.item():.5f} {old_approx_kl.item():.6f} {approx_kl.item():.6f} {np.mean(clipfracs):.4f} {explained_var:.4f}", rewards.sum().item())

cagent = ContinuousAgent(3, 2)
x = torch.randn(5, 3)
a, lp, ent, v = cagent.get_action_and_value(x)
print(a.shape, lp, ent, v.shape)
_, lp2, _, _ = cagent.get_action_and_value(x, a)
print(torch.allclose(lp, lp2), agent.actor[4].weight.norm().item(), agent.critic[0].bias.abs().sum().item())
