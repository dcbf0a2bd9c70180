"""Domain adaptation as the DANN / Deep CORAL / MMD reference code writes it: the gradient reversal
layer as an autograd.Function (forward view_as, backward grad_output.neg() * alpha) and its ctx.alpha,
the DANN schedule 2 / (1 + exp(-10 p)) - 1, a domain classifier trained jointly with a label classifier,
the CORAL loss from feature covariances (xm.t() @ xm / (n - 1), squared Frobenius norm / 4d^2), the
multi-kernel Gaussian MMD with torch.cdist-free pairwise distances (sum of squares via unsqueeze/expand,
bandwidths from the data, kernel_mul), entropy minimisation on target predictions, and pseudo-labels
by confidence threshold; gradient signs checked through the reversal layer."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function

torch.manual_seed(0)


class ReverseLayerF(Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        output = grad_output.neg() * ctx.alpha
        return output, None


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = ReverseLayerF.apply(x, 0.5)
print(y, y.grad_fn.name() if hasattr(y.grad_fn, "name") else type(y.grad_fn).__name__)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("reversed grad", x.grad.tolist())


class DANN(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 8), nn.ReLU())
        self.class_classifier = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 3), nn.LogSoftmax(dim=1))
        self.domain_classifier = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2), nn.LogSoftmax(dim=1))

    def forward(self, input_data, alpha):
        feature = self.feature(input_data)
        reverse_feature = ReverseLayerF.apply(feature, alpha)
        return self.class_classifier(feature), self.domain_classifier(reverse_feature), feature


def CORAL(source, target):
    d = source.size(1)
    ns, nt = source.size(0), target.size(0)
    xm = torch.mean(source, 0, keepdim=True) - source
    xc = xm.t() @ xm / (ns - 1)
    xmt = torch.mean(target, 0, keepdim=True) - target
    xct = xmt.t() @ xmt / (nt - 1)
    loss = torch.mul((xc - xct), (xc - xct))
    return torch.sum(loss) / (4 * d * d)


def guassian_kernel(source, target, kernel_mul=2.0, kernel_num=5, fix_sigma=None):
    n_samples = int(source.size()[0]) + int(target.size()[0])
    total = torch.cat([source, target], dim=0)
    total0 = total.unsqueeze(0).expand(int(total.size(0)), int(total.size(0)), int(total.size(1)))
    total1 = total.unsqueeze(1).expand(int(total.size(0)), int(total.size(0)), int(total.size(1)))
    L2_distance = ((total0 - total1) ** 2).sum(2)
    if fix_sigma:
        bandwidth = fix_sigma
    else:
        bandwidth = torch.sum(L2_distance.data) / (n_samples ** 2 - n_samples)
    bandwidth /= kernel_mul ** (kernel_num // 2)
    bandwidth_list = [bandwidth * (kernel_mul ** i) for i in range(kernel_num)]
    kernel_val = [torch.exp(-L2_distance / bandwidth_temp) for bandwidth_temp in bandwidth_list]
    return sum(kernel_val)


def mmd_rbf(source, target, kernel_mul=2.0, kernel_num=5, fix_sigma=None):
    batch_size = int(source.size()[0])
    kernels = guassian_kernel(source, target, kernel_mul=kernel_mul, kernel_num=kernel_num, fix_sigma=fix_sigma)
    XX = kernels[:batch_size, :batch_size]
    YY = kernels[batch_size:, batch_size:]
    XY = kernels[:batch_size, batch_size:]
    YX = kernels[batch_size:, :batch_size]
    return torch.mean(XX + YY - XY - YX)


src_x, src_y = torch.randn(16, 6), torch.randint(0, 3, (16,))
tgt_x = torch.randn(16, 6) * 1.5 + 0.5
print("coral", round(CORAL(src_x, tgt_x).item(), 5), "coral same", CORAL(src_x, src_x).item())
print("mmd", round(mmd_rbf(src_x, tgt_x).item(), 5), round(mmd_rbf(src_x, src_x.clone()).item(), 6),
      round(mmd_rbf(src_x, tgt_x, fix_sigma=4.0).item(), 5))
model = DANN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_class = nn.NLLLoss()
loss_domain = nn.NLLLoss()
n_epoch, len_dataloader = 3, 2
for epoch in range(n_epoch):
    for i in range(len_dataloader):
        p = float(i + epoch * len_dataloader) / n_epoch / len_dataloader
        alpha = 2. / (1. + math.exp(-10 * p)) - 1
        model.zero_grad()
        class_output, domain_output, fs = model(src_x, alpha)
        err_s_label = loss_class(class_output, src_y)
        err_s_domain = loss_domain(domain_output, torch.zeros(16).long())
        _, domain_output_t, ft = model(tgt_x, alpha)
        err_t_domain = loss_domain(domain_output_t, torch.ones(16).long())
        err = err_t_domain + err_s_domain + err_s_label + 0.5 * CORAL(fs, ft)
        err.backward()
        optimizer.step()
        print(f"epoch {epoch} it {i} alpha {alpha:.4f} err_s_label {err_s_label.item():.4f} "
              f"err_s_domain {err_s_domain.item():.4f} err_t_domain {err_t_domain.item():.4f}")
feat = torch.randn(4, 8, requires_grad=True)
head = nn.Linear(8, 2)
F.nll_loss(F.log_softmax(head(ReverseLayerF.apply(feat, 1.0)), 1), torch.tensor([0, 1, 0, 1])).backward()
g_rev = feat.grad.clone()
feat.grad = None
F.nll_loss(F.log_softmax(head(feat), 1), torch.tensor([0, 1, 0, 1])).backward()
print("reversal flips gradient:", torch.allclose(g_rev, -feat.grad))
model.eval()
with torch.no_grad():
    logits_t, _, _ = model(tgt_x, 0.0)
probs = logits_t.exp()
entropy = -(probs * logits_t).sum(1).mean()
conf, pseudo = probs.max(1)
mask = conf.ge(0.4).float()
print("target entropy", round(entropy.item(), 4), "pseudo", pseudo[:6].tolist(), "kept", int(mask.sum().item()))
