"""Mixture-of-experts routing as in Switch Transformer / Mixtral / fairseq re-implementations: noisy top-k
gating (softplus noise scale), top-1 routing with capacity factor and token dropping through cumsum of
one_hot masks, the load-balancing auxiliary loss and router z-loss, combining expert outputs with
index_add_ / scatter_add_, a Mixtral-style sparse block looping over experts with torch.where, and
expert-choice routing (experts pick tokens with topk over the token axis)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)


class Expert(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.w1, self.w2, self.w3 = nn.Linear(d, hidden, bias=False), nn.Linear(hidden, d, bias=False), nn.Linear(d, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class NoisyTopkRouter(nn.Module):
    def __init__(self, d, num_experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.topkroute_linear = nn.Linear(d, num_experts)
        self.noise_linear = nn.Linear(d, num_experts)

    def forward(self, x):
        logits = self.topkroute_linear(x)
        noise_logits = self.noise_linear(x)
        noisy_logits = logits + torch.randn_like(logits) * F.softplus(noise_logits) if self.training else logits
        top_k_logits, indices = noisy_logits.topk(self.top_k, dim=-1)
        zeros = torch.full_like(noisy_logits, float("-inf"))
        sparse_logits = zeros.scatter(-1, indices, top_k_logits)
        return F.softmax(sparse_logits, dim=-1), indices


class SparseMoE(nn.Module):
    def __init__(self, d, hidden, num_experts=4, top_k=2):
        super().__init__()
        self.router = NoisyTopkRouter(d, num_experts, top_k)
        self.experts = nn.ModuleList([Expert(d, hidden) for _ in range(num_experts)])

    def forward(self, x):
        gating_output, indices = self.router(x)
        final_output = torch.zeros_like(x)
        flat_x = x.view(-1, x.size(-1))
        flat_gating_output = gating_output.view(-1, gating_output.size(-1))
        for i, expert in enumerate(self.experts):
            expert_mask = (indices == i).any(dim=-1)
            flat_mask = expert_mask.view(-1)
            if flat_mask.any():
                expert_input = flat_x[flat_mask]
                expert_output = expert(expert_input)
                gating_scores = flat_gating_output[flat_mask, i].unsqueeze(1)
                final_output[expert_mask] += expert_output * gating_scores
        return final_output


class SwitchFFN(nn.Module):
    def __init__(self, d, hidden, num_experts=4, capacity_factor=1.0):
        super().__init__()
        self.num_experts, self.capacity_factor = num_experts, capacity_factor
        self.switch = nn.Linear(d, num_experts)
        self.experts = nn.ModuleList([Expert(d, hidden) for _ in range(num_experts)])

    def forward(self, x):
        b, s, d = x.shape
        tokens = x.reshape(-1, d)
        router_logits = self.switch(tokens)
        route_prob = F.softmax(router_logits, dim=-1)
        route_prob_max, routes = torch.max(route_prob, dim=-1)
        capacity = int(self.capacity_factor * len(tokens) / self.num_experts)
        expert_mask = F.one_hot(routes, self.num_experts)
        position_in_expert = torch.cumsum(expert_mask, dim=0) * expert_mask
        keep = (position_in_expert <= capacity) & (expert_mask == 1)
        kept = keep.any(dim=-1)
        counts = expert_mask.sum(0)
        final = tokens.new_zeros(tokens.shape)
        for i in range(self.num_experts):
            idx = torch.nonzero(keep[:, i], as_tuple=True)[0]
            final.index_add_(0, idx, self.experts[i](tokens[idx]))
        final = final * route_prob_max.unsqueeze(-1)
        final = torch.where(kept.unsqueeze(-1), final, tokens)
        density = counts.float() / len(tokens)
        density_proxy = route_prob.mean(0)
        aux_loss = self.num_experts * (density * density_proxy).sum()
        z_loss = torch.logsumexp(router_logits, dim=-1).pow(2).mean()
        return final.view(b, s, d), counts, int((~kept).sum()), aux_loss, z_loss


def expert_choice(x, gate, capacity):
    scores = F.softmax(gate(x), dim=-1)
    g, token_idx = scores.t().topk(capacity, dim=-1)
    dispatch = F.one_hot(token_idx, x.shape[0]).float()
    expert_in = torch.einsum("ect,td->ecd", dispatch, x)
    combined = torch.einsum("ect,ec,ecd->td", dispatch, g, expert_in)
    coverage = torch.zeros(x.shape[0]).scatter_add_(0, token_idx.flatten(), torch.ones(token_idx.numel()))
    return combined, coverage


x = torch.randn(2, 6, 8)
moe = SparseMoE(8, 16)
out = moe(x)
print("sparse moe", out.shape, out[0, 0].round(decimals=4))
moe.eval()
probs, idx = moe.router(x)
print("eval gates", probs[0, :3].round(decimals=4), idx[0, :3])
switch = SwitchFFN(8, 16, capacity_factor=1.0)
y, counts, dropped, aux, z = switch(x)
print("switch counts", counts, "dropped", dropped, "aux", round(aux.item(), 5), "z", round(z.item(), 4))
print(y[1, :2].round(decimals=4))
combined, coverage = expert_choice(x.view(-1, 8), nn.Linear(8, 4), capacity=3)
print("expert choice", combined.abs().sum().round(decimals=3).item(), coverage)

opt = torch.optim.Adam(switch.parameters(), lr=1e-2)
target = torch.randn(2, 6, 8)
for step in range(30):
    y, counts, dropped, aux, z = switch(x)
    loss = F.mse_loss(y, target) + 0.01 * aux + 1e-3 * z
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1} loss {loss.item():.4f} counts {counts.tolist()} dropped {dropped}")
print("switch grad norm", torch.nn.utils.clip_grad_norm_(switch.parameters(), float("inf")).item())
moe.train()
opt = torch.optim.SGD(moe.parameters(), lr=0.05)
for step in range(20):
    loss = F.mse_loss(moe(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("sparse moe loss", round(loss.item(), 4), "router grad", moe.router.noise_linear.weight.grad.abs().sum().item() > 0)
