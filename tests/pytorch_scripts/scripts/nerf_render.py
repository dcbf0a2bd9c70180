"""NeRF's rendering code as nerf-pytorch (yenchenlin) writes it: the positional Embedder with
2.**torch.linspace frequency bands and sin/cos functions concatenated, get_rays from a pinhole camera
(torch.meshgrid(indexing='ij') then .t(), directions rotated by c2w[:3, :3] via broadcasting and sum),
stratified samples z_vals = near * (1 - t_vals) + far * t_vals with deterministic midpoints, raw2outputs
(dists with the 1e10 tail, alpha = 1 - exp(-relu(sigma) * dists), transmittance by an exclusive
torch.cumprod built with torch.cat of ones, weights, rgb_map, depth_map, acc_map, disp_map with
torch.max(1e-10 * ones_like, ...)), hierarchical sample_pdf with torch.searchsorted(right=True), clamp
of below/above, torch.gather of the expanded cdf, and a tiny MLP trained for a few steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Embedder:
    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.create_embedding_fn()

    def create_embedding_fn(self):
        embed_fns = []
        d = self.kwargs["input_dims"]
        out_dim = 0
        if self.kwargs["include_input"]:
            embed_fns.append(lambda x: x)
            out_dim += d
        max_freq = self.kwargs["max_freq_log2"]
        N_freqs = self.kwargs["num_freqs"]
        if self.kwargs["log_sampling"]:
            freq_bands = 2. ** torch.linspace(0., max_freq, steps=N_freqs)
        else:
            freq_bands = torch.linspace(2. ** 0., 2. ** max_freq, steps=N_freqs)
        for freq in freq_bands:
            for p_fn in self.kwargs["periodic_fns"]:
                embed_fns.append(lambda x, p_fn=p_fn, freq=freq: p_fn(x * freq))
                out_dim += d
        self.embed_fns = embed_fns
        self.out_dim = out_dim

    def embed(self, inputs):
        return torch.cat([fn(inputs) for fn in self.embed_fns], -1)


embedder = Embedder(include_input=True, input_dims=3, max_freq_log2=3, num_freqs=4, log_sampling=True,
                    periodic_fns=[torch.sin, torch.cos])
print("embed dim", embedder.out_dim, embedder.embed(torch.tensor([[0.1, 0.2, 0.3]])).shape)


def get_rays(H, W, K, c2w):
    i, j = torch.meshgrid(torch.linspace(0, W - 1, W), torch.linspace(0, H - 1, H), indexing="ij")
    i = i.t()
    j = j.t()
    dirs = torch.stack([(i - K[0][2]) / K[0][0], -(j - K[1][2]) / K[1][1], -torch.ones_like(i)], -1)
    rays_d = torch.sum(dirs[..., None, :] * c2w[:3, :3], -1)
    rays_o = c2w[:3, -1].expand(rays_d.shape)
    return rays_o, rays_d


K = torch.tensor([[4.0, 0, 2.0], [0, 4.0, 1.5], [0, 0, 1]])
c2w = torch.tensor([[1.0, 0, 0, 0.1], [0, 0.8, -0.6, 0.2], [0, 0.6, 0.8, 2.0]])
rays_o, rays_d = get_rays(3, 4, K, c2w)
print("rays", rays_o.shape, rays_d.shape, rays_d[1, 2].round(decimals=4).tolist(), rays_o.stride())
rays_o, rays_d = rays_o.reshape(-1, 3), rays_d.reshape(-1, 3)
viewdirs = rays_d / torch.norm(rays_d, dim=-1, keepdim=True)
N_samples = 8
near, far = 2.0 * torch.ones_like(rays_d[..., :1]), 6.0 * torch.ones_like(rays_d[..., :1])
t_vals = torch.linspace(0., 1., steps=N_samples)
z_vals = near * (1. - t_vals) + far * (t_vals)
z_vals = z_vals.expand([rays_d.shape[0], N_samples])
mids = .5 * (z_vals[..., 1:] + z_vals[..., :-1])
upper = torch.cat([mids, z_vals[..., -1:]], -1)
lower = torch.cat([z_vals[..., :1], mids], -1)
t_rand = torch.linspace(0.1, 0.9, N_samples).expand(z_vals.shape)
z_vals = lower + (upper - lower) * t_rand
pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
print("pts", pts.shape, z_vals[0].round(decimals=3).tolist())


def raw2outputs(raw, z_vals, rays_d, white_bkgd=False):
    raw2alpha = lambda raw, dists, act_fn=F.relu: 1. - torch.exp(-act_fn(raw) * dists)
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.Tensor([1e10]).expand(dists[..., :1].shape)], -1)
    dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
    rgb = torch.sigmoid(raw[..., :3])
    alpha = raw2alpha(raw[..., 3], dists)
    weights = alpha * torch.cumprod(torch.cat([torch.ones((alpha.shape[0], 1)), 1. - alpha + 1e-10], -1), -1)[:, :-1]
    rgb_map = torch.sum(weights[..., None] * rgb, -2)
    depth_map = torch.sum(weights * z_vals, -1)
    disp_map = 1. / torch.max(1e-10 * torch.ones_like(depth_map), depth_map / torch.sum(weights, -1))
    acc_map = torch.sum(weights, -1)
    if white_bkgd:
        rgb_map = rgb_map + (1. - acc_map[..., None])
    return rgb_map, disp_map, acc_map, weights, depth_map


def sample_pdf(bins, weights, N_samples):
    weights = weights + 1e-5
    pdf = weights / torch.sum(weights, -1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], -1)
    u = torch.linspace(0., 1., steps=N_samples)
    u = u.expand(list(cdf.shape[:-1]) + [N_samples])
    u = u.contiguous()
    inds = torch.searchsorted(cdf, u, right=True)
    below = torch.max(torch.zeros_like(inds - 1), inds - 1)
    above = torch.min((cdf.shape[-1] - 1) * torch.ones_like(inds), inds)
    inds_g = torch.stack([below, above], -1)
    matched_shape = [inds_g.shape[0], inds_g.shape[1], cdf.shape[-1]]
    cdf_g = torch.gather(cdf.unsqueeze(1).expand(matched_shape), 2, inds_g)
    bins_g = torch.gather(bins.unsqueeze(1).expand(matched_shape), 2, inds_g)
    denom = (cdf_g[..., 1] - cdf_g[..., 0])
    denom = torch.where(denom < 1e-5, torch.ones_like(denom), denom)
    t = (u - cdf_g[..., 0]) / denom
    samples = bins_g[..., 0] + t * (bins_g[..., 1] - bins_g[..., 0])
    return samples


class TinyNeRF(nn.Module):
    def __init__(self, in_ch, W=32):
        super().__init__()
        self.pts_linears = nn.ModuleList([nn.Linear(in_ch, W), nn.Linear(W, W)])
        self.output_linear = nn.Linear(W, 4)

    def forward(self, x):
        h = x
        for layer in self.pts_linears:
            h = F.relu(layer(h))
        return self.output_linear(h)


model = TinyNeRF(embedder.out_dim)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3, betas=(0.9, 0.999))
target = torch.rand(rays_o.shape[0], 3)
img2mse = lambda x, y: torch.mean((x - y) ** 2)
mse2psnr = lambda x: -10. * torch.log(x) / torch.log(torch.Tensor([10.]))
for step in range(5):
    raw = model(embedder.embed(pts))
    rgb_map, disp_map, acc_map, weights, depth_map = raw2outputs(raw, z_vals, rays_d)
    loss = img2mse(rgb_map, target)
    psnr = mse2psnr(loss)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5f} psnr {psnr.item():.3f}", psnr.shape)
print("weights", weights.shape, bool((weights >= 0).all()), bool((acc_map <= 1 + 1e-5).all()), depth_map.grad_fn.name())
z_vals_mid = .5 * (z_vals[..., 1:] + z_vals[..., :-1])
z_samples = sample_pdf(z_vals_mid, weights[..., 1:-1].detach(), 6)
print("sample_pdf", z_samples.shape, bool((z_samples >= z_vals_mid[:, :1]).all()), z_samples.requires_grad)
z_all, _ = torch.sort(torch.cat([z_vals, z_samples], -1), -1)
print("fine z", z_all.shape, bool((z_all[:, 1:] >= z_all[:, :-1]).all()))
print(torch.searchsorted(torch.tensor([0., 0.5, 1.0]), torch.tensor([0.5, 0.2, 1.5]), right=True).tolist(),
      torch.searchsorted(torch.tensor([0., 0.5, 1.0]), torch.tensor([0.5, 0.2, 1.5])).tolist(),
      torch.searchsorted(torch.tensor([0., 0.5, 1.0]), 0.5, side="right"))
