"""Sparse mixture-of-experts and vector quantisation as research code writes them in plain torch:
a Switch/Mixtral-style router (softmax, topk, renormalised top-k weights, F.one_hot expert masks,
torch.where to find each expert's tokens, index_add_ to combine), the Shazeer noisy top-k gate with
scatter into -inf logits and the load-balancing auxiliary loss, capacity with cumsum positions; then
the VQ-VAE quantiser (zalandoresearch / rosinality style): distances by ||z||^2 - 2 z.e + ||e||^2,
argmin codes, one-hot encodings with scatter_, the straight-through estimator
z + (z_q - z).detach(), commitment loss, perplexity, and EMA codebook updates with Laplace smoothing."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Expert(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.w1, self.w2, self.w3 = nn.Linear(d, h, bias=False), nn.Linear(h, d, bias=False), nn.Linear(d, h, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoeBlock(nn.Module):
    def __init__(self, d=8, h=16, num_experts=4, top_k=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.gate = nn.Linear(d, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(d, h) for _ in range(num_experts)])

    def forward(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.view(-1, hidden_dim)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(hidden_states.dtype)
        final_hidden_states = torch.zeros((batch_size * sequence_length, hidden_dim), dtype=hidden_states.dtype)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            expert_layer = self.experts[expert_idx]
            idx, top_x = torch.where(expert_mask[expert_idx])
            current_state = hidden_states[None, top_x].reshape(-1, hidden_dim)
            current_hidden_states = expert_layer(current_state) * routing_weights[top_x, idx, None]
            final_hidden_states.index_add_(0, top_x, current_hidden_states.to(hidden_states.dtype))
        final_hidden_states = final_hidden_states.reshape(batch_size, sequence_length, hidden_dim)
        return final_hidden_states, router_logits


def load_balancing_loss_func(gate_logits, num_experts, top_k):
    routing_weights = F.softmax(gate_logits, dim=-1)
    _, selected_experts = torch.topk(routing_weights, top_k, dim=-1)
    expert_mask = F.one_hot(selected_experts, num_experts)
    tokens_per_expert = torch.mean(expert_mask.float(), dim=0)
    router_prob_per_expert = torch.mean(routing_weights, dim=0)
    return torch.sum(tokens_per_expert * router_prob_per_expert.unsqueeze(0)) * num_experts


moe = SparseMoeBlock()
opt = torch.optim.AdamW(moe.parameters(), lr=1e-2)
x = torch.randn(2, 6, 8)
target = torch.randn(2, 6, 8)
for step in range(4):
    out, logits = moe(x)
    aux = load_balancing_loss_func(logits, 4, 2)
    loss = F.mse_loss(out, target) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"moe step {step} loss {loss.item():.4f} aux {aux.item():.4f}")
_, chosen = torch.topk(logits, 2, dim=-1)
print("tokens per expert", torch.bincount(chosen.flatten(), minlength=4).tolist(), out.grad_fn.name())
print("unused expert grads", [e.w1.weight.grad is None for e in moe.experts])

# Noisy top-k gating (Shazeer et al. 2017)
logits = torch.randn(6, 4)
noise = torch.randn_like(logits) * F.softplus(torch.randn(6, 4))
noisy = logits + noise
top_logits, top_indices = noisy.topk(2, dim=1)
zeros = torch.full_like(noisy, float("-inf"))
sparse_logits = zeros.scatter(1, top_indices, top_logits)
gates = F.softmax(sparse_logits, dim=1)
print("gates", gates.round(decimals=4).tolist()[0], (gates > 0).sum(1).tolist())
capacity = 3
mask = F.one_hot(top_indices[:, 0], 4)
position_in_expert = torch.cumsum(mask, dim=0) * mask
kept = (position_in_expert <= capacity) & (mask == 1)
print("positions", position_in_expert.sum(1).tolist(), "dropped", (mask.sum() - kept.sum()).item())


# ---- VQ-VAE quantiser
class VectorQuantizer(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, commitment_cost):
        super().__init__()
        self._embedding_dim, self._num_embeddings = embedding_dim, num_embeddings
        self._embedding = nn.Embedding(self._num_embeddings, self._embedding_dim)
        self._embedding.weight.data.uniform_(-1 / self._num_embeddings, 1 / self._num_embeddings)
        self._commitment_cost = commitment_cost

    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        input_shape = inputs.shape
        flat_input = inputs.view(-1, self._embedding_dim)
        distances = (torch.sum(flat_input ** 2, dim=1, keepdim=True) + torch.sum(self._embedding.weight ** 2, dim=1)
                     - 2 * torch.matmul(flat_input, self._embedding.weight.t()))
        encoding_indices = torch.argmin(distances, dim=1).unsqueeze(1)
        encodings = torch.zeros(encoding_indices.shape[0], self._num_embeddings, device=inputs.device)
        encodings.scatter_(1, encoding_indices, 1)
        quantized = torch.matmul(encodings, self._embedding.weight).view(input_shape)
        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        q_latent_loss = F.mse_loss(quantized, inputs.detach())
        loss = q_latent_loss + self._commitment_cost * e_latent_loss
        quantized = inputs + (quantized - inputs).detach()
        avg_probs = torch.mean(encodings, dim=0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity, encodings


vq = VectorQuantizer(8, 4, 0.25)
encoder = nn.Conv2d(3, 4, 3, padding=1)
decoder = nn.Conv2d(4, 3, 3, padding=1)
params = list(encoder.parameters()) + list(vq.parameters()) + list(decoder.parameters())
optimizer = torch.optim.Adam(params, lr=3e-3, amsgrad=False)
images = torch.rand(2, 3, 4, 4)
for step in range(4):
    z = encoder(images)
    vq_loss, quantized, perplexity, enc = vq(z)
    recon = decoder(quantized)
    recon_error = F.mse_loss(recon, images)
    loss = recon_error + vq_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"vq step {step} recon {recon_error.item():.4f} vq {vq_loss.item():.5f} ppl {perplexity.item():.3f}")
print("ste grad flows to encoder:", encoder.weight.grad.abs().sum().item() > 0, quantized.grad_fn.name())
print("codes used", enc.argmax(1).unique().tolist())

# EMA codebook update (decay 0.99, Laplace smoothing)
decay, eps = 0.99, 1e-5
ema_cluster_size = torch.zeros(8)
ema_w = vq._embedding.weight.data.clone()
flat = z.detach().permute(0, 2, 3, 1).reshape(-1, 4)
with torch.no_grad():
    ema_cluster_size.mul_(decay).add_(enc.sum(0), alpha=1 - decay)
    n = ema_cluster_size.sum()
    cluster_size = (ema_cluster_size + eps) / (n + 8 * eps) * n
    ema_w.mul_(decay).add_(enc.t() @ flat, alpha=1 - decay)
    new_weight = ema_w / cluster_size.unsqueeze(1)
print("ema", cluster_size.round(decimals=4).tolist(), round(new_weight.abs().sum().item(), 4))
dist = torch.cdist(flat, vq._embedding.weight)
print("cdist argmin agrees:", torch.equal(dist.argmin(1), enc.argmax(1)))
