# dreamquark-ai/tabnet, trimmed: sparsemax and entmax15 as custom autograd Functions (sort descending,
# cumsum, gather of the threshold, clamp, save_for_backward, ctx attributes), GhostBatchNorm over
# virtual batches with chunk, GLU layers, the attentive transformer with priors, the feature
# transformer, sparsity regularisation (entropy of masks) and explain masks.
import numpy as np
import torch
from torch import nn
from torch.autograd import Function

torch.manual_seed(0)


def _make_ix_like(input, dim=0):
    d = input.size(dim)
    rho = torch.arange(1, d + 1, device=input.device, dtype=input.dtype)
    view = [1] * input.dim()
    view[0] = -1
    return rho.view(view).transpose(0, dim)


class SparsemaxFunction(Function):
    @staticmethod
    def forward(ctx, input, dim=-1):
        ctx.dim = dim
        max_val, _ = input.max(dim=dim, keepdim=True)
        input -= max_val
        tau, supp_size = SparsemaxFunction._threshold_and_support(input, dim=dim)
        output = torch.clamp(input - tau, min=0)
        ctx.save_for_backward(supp_size, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        supp_size, output = ctx.saved_tensors
        dim = ctx.dim
        grad_input = grad_output.clone()
        grad_input[output == 0] = 0
        v_hat = grad_input.sum(dim=dim) / supp_size.to(output.dtype).squeeze()
        v_hat = v_hat.unsqueeze(dim)
        grad_input = torch.where(output != 0, grad_input - v_hat, grad_input)
        return grad_input, None

    @staticmethod
    def _threshold_and_support(input, dim=-1):
        input_srt, _ = torch.sort(input, descending=True, dim=dim)
        input_cumsum = input_srt.cumsum(dim) - 1
        rhos = _make_ix_like(input, dim)
        support = rhos * input_srt > input_cumsum
        support_size = support.sum(dim=dim).unsqueeze(dim)
        tau = input_cumsum.gather(dim, support_size - 1)
        tau /= support_size.to(input.dtype)
        return tau, support_size


sparsemax = SparsemaxFunction.apply


class Entmax15Function(Function):
    @staticmethod
    def forward(ctx, input, dim=-1):
        ctx.dim = dim
        max_val, _ = input.max(dim=dim, keepdim=True)
        input = input - max_val
        input = input / 2
        tau_star, _ = Entmax15Function._threshold_and_support(input, dim)
        output = torch.clamp(input - tau_star, min=0) ** 2
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        Y, = ctx.saved_tensors
        gppr = Y.sqrt()
        dX = grad_output * gppr
        q = dX.sum(ctx.dim) / gppr.sum(ctx.dim)
        q = q.unsqueeze(ctx.dim)
        dX -= q * gppr
        return dX, None

    @staticmethod
    def _threshold_and_support(input, dim=-1):
        Xsrt, _ = torch.sort(input, descending=True, dim=dim)
        rho = _make_ix_like(input, dim)
        mean = Xsrt.cumsum(dim) / rho
        mean_sq = (Xsrt ** 2).cumsum(dim) / rho
        ss = rho * (mean_sq - mean ** 2)
        delta = (1 - ss) / rho
        delta_nz = torch.clamp(delta, 0)
        tau = mean - torch.sqrt(delta_nz)
        support_size = (tau <= Xsrt).sum(dim).unsqueeze(dim)
        tau_star = tau.gather(dim, support_size - 1)
        return tau_star, support_size


entmax15 = Entmax15Function.apply


class GBN(nn.Module):
    def __init__(self, input_dim, virtual_batch_size=4, momentum=0.01):
        super(GBN, self).__init__()
        self.input_dim = input_dim
        self.virtual_batch_size = virtual_batch_size
        self.bn = nn.BatchNorm1d(self.input_dim, momentum=momentum)

    def forward(self, x):
        chunks = x.chunk(int(np.ceil(x.shape[0] / self.virtual_batch_size)), 0)
        res = [self.bn(x_) for x_ in chunks]
        return torch.cat(res, dim=0)


class GLU_Layer(nn.Module):
    def __init__(self, input_dim, output_dim, fc=None, virtual_batch_size=4, momentum=0.02):
        super(GLU_Layer, self).__init__()
        self.output_dim = output_dim
        self.fc = fc if fc else nn.Linear(input_dim, 2 * output_dim, bias=False)
        self.bn = GBN(2 * output_dim, virtual_batch_size=virtual_batch_size, momentum=momentum)

    def forward(self, x):
        x = self.fc(x)
        x = self.bn(x)
        return torch.mul(x[:, : self.output_dim], torch.sigmoid(x[:, self.output_dim:]))


class FeatTransformer(nn.Module):
    def __init__(self, input_dim, output_dim, shared_fc, n_independent=1):
        super().__init__()
        self.shared = GLU_Layer(input_dim, output_dim, fc=shared_fc)
        self.specifics = nn.ModuleList([GLU_Layer(output_dim, output_dim) for _ in range(n_independent)])
        self.scale = torch.sqrt(torch.FloatTensor([0.5]))

    def forward(self, x):
        x = self.shared(x)
        for glu in self.specifics:
            x = torch.add(x, glu(x))
            x = x * self.scale
        return x


class AttentiveTransformer(nn.Module):
    def __init__(self, input_dim, group_dim, mask_type="sparsemax"):
        super(AttentiveTransformer, self).__init__()
        self.fc = nn.Linear(input_dim, group_dim, bias=False)
        self.bn = GBN(group_dim)
        self.selector = sparsemax if mask_type == "sparsemax" else entmax15

    def forward(self, priors, processed_feat):
        x = self.fc(processed_feat)
        x = self.bn(x)
        x = torch.mul(x, priors)
        return self.selector(x, -1)


class TabNetEncoder(nn.Module):
    def __init__(self, input_dim, n_d=4, n_a=4, n_steps=3, gamma=1.3, epsilon=1e-15, mask_type="sparsemax"):
        super().__init__()
        self.input_dim, self.n_d, self.n_a, self.n_steps, self.gamma, self.epsilon = input_dim, n_d, n_a, n_steps, gamma, epsilon
        self.initial_bn = nn.BatchNorm1d(input_dim, momentum=0.01)
        shared_fc = nn.Linear(input_dim, 2 * (n_d + n_a), bias=False)
        self.initial_splitter = FeatTransformer(input_dim, n_d + n_a, shared_fc)
        self.feat_transformers = nn.ModuleList([FeatTransformer(input_dim, n_d + n_a, shared_fc) for _ in range(n_steps)])
        self.att_transformers = nn.ModuleList([AttentiveTransformer(n_a, input_dim, mask_type) for _ in range(n_steps)])

    def forward(self, x, prior=None):
        x = self.initial_bn(x)
        bs = x.shape[0]
        if prior is None:
            prior = torch.ones((bs, self.input_dim)).to(x.device)
        M_loss = 0
        att = self.initial_splitter(x)[:, self.n_d:]
        steps_output = []
        masks = []
        for step in range(self.n_steps):
            M = self.att_transformers[step](prior, att)
            M_loss += torch.mean(torch.sum(torch.mul(M, torch.log(M + self.epsilon)), dim=1))
            prior = torch.mul(self.gamma - M, prior)
            masked_x = torch.mul(M, x)
            out = self.feat_transformers[step](masked_x)
            d = nn.ReLU()(out[:, : self.n_d])
            steps_output.append(d)
            att = out[:, self.n_d:]
            masks.append(M)
        M_loss /= self.n_steps
        return steps_output, M_loss, masks


z = torch.tensor([[1.0, 0.8, -0.5, 0.1], [0.0, 0.0, 0.0, 0.0], [3.0, -1.0, 2.9, 0.2]])
print('sparsemax', [[round(v, 4) for v in r] for r in sparsemax(z.clone(), -1).tolist()])
print('entmax15', [[round(v, 4) for v in r] for r in entmax15(z.clone(), -1).tolist()])
zz = z.clone().double().requires_grad_(True)
print('gradcheck', torch.autograd.gradcheck(lambda t: sparsemax(t * 1.0, -1), (zz,)),
      torch.autograd.gradcheck(lambda t: entmax15(t, -1), (zz,)))
w = torch.tensor([0.3, -0.2, 0.5, 0.1])
zr = z.clone().requires_grad_(True)
(sparsemax(zr * 1.0, -1) * w).sum().backward()
print('sparsemax grad', [[round(v, 4) for v in r] for r in zr.grad.tolist()])
print('dim 0', [[round(v, 3) for v in r] for r in sparsemax(z.clone(), 0).tolist()])

enc = TabNetEncoder(input_dim=6)
head = nn.Linear(4, 3)
params = list(enc.parameters()) + list(head.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        if p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.6)
print('shared fc is shared', enc.feat_transformers[0].shared.fc is enc.feat_transformers[2].shared.fc,
      'n params', sum(p.numel() for p in enc.parameters()))
X = torch.cos(torch.arange(10 * 6, dtype=torch.float32) * 0.37).view(10, 6) * 2
y = (X[:, 0] > 0).long() + (X[:, 3] > 0.5).long()
opt = torch.optim.Adam(params, lr=2e-2)
lambda_sparse = 1e-3
for epoch in range(4):
    steps_output, M_loss, masks = enc(X)
    res = torch.sum(torch.stack(steps_output, dim=0), dim=0)
    loss = nn.functional.cross_entropy(head(res), y) - lambda_sparse * M_loss
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(params, 1)
    opt.step()
    print('epoch', epoch, round(loss.item(), 5), 'M_loss', round(M_loss.item(), 5))
enc.eval()
with torch.no_grad():
    _, _, masks = enc(X[:3])
    explain = sum(m * s for m, s in zip(masks, [1.0, 0.5, 0.25]))
print('mask rows sum', [round(v, 4) for v in masks[0].sum(1).tolist()])
print('explain', [[round(v, 3) for v in r] for r in explain.tolist()])
print('nonzero mask entries', [int((m > 0).sum()) for m in masks])
