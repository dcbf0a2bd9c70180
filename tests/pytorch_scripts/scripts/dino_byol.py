"""Self-distillation with an EMA teacher as facebookresearch/dino and BYOL code write it: DINOHead with a
weight-normed last layer (nn.utils.weight_norm, weight_g filled with 1 and frozen), DINOLoss with a
center buffer updated by EMA, teacher temperature warmup schedule via np.concatenate/linspace,
student/teacher crops (global views plus small local crops through F.interpolate), chunk over views,
the momentum teacher update with torch._foreach_mul_/_foreach_add_ (and the zip loop form),
cancel_gradients_last_layer, BYOL's normalized MSE loss, and cosine momentum schedules."""
import copy
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DINOHead(nn.Module):
    def __init__(self, in_dim, out_dim, use_bn=False, norm_last_layer=True, nlayers=3, hidden_dim=32, bottleneck_dim=16):
        super().__init__()
        nlayers = max(nlayers, 1)
        layers = [nn.Linear(in_dim, hidden_dim)]
        if use_bn:
            layers.append(nn.BatchNorm1d(hidden_dim))
        layers.append(nn.GELU())
        for _ in range(nlayers - 2):
            layers.append(nn.Linear(hidden_dim, hidden_dim))
            layers.append(nn.GELU())
        layers.append(nn.Linear(hidden_dim, bottleneck_dim))
        self.mlp = nn.Sequential(*layers)
        self.apply(self._init_weights)
        self.last_layer = nn.utils.weight_norm(nn.Linear(bottleneck_dim, out_dim, bias=False))
        self.last_layer.weight_g.data.fill_(1)
        if norm_last_layer:
            self.last_layer.weight_g.requires_grad = False

    def _init_weights(self, m):
        if isinstance(m, nn.Linear):
            nn.init.trunc_normal_(m.weight, std=.02)
            if isinstance(m, nn.Linear) and m.bias is not None:
                nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.mlp(x)
        x = nn.functional.normalize(x, dim=-1, p=2)
        x = self.last_layer(x)
        return x


class DINOLoss(nn.Module):
    def __init__(self, out_dim, ncrops, warmup_teacher_temp, teacher_temp, warmup_teacher_temp_epochs, nepochs, student_temp=0.1, center_momentum=0.9):
        super().__init__()
        self.student_temp = student_temp
        self.center_momentum = center_momentum
        self.ncrops = ncrops
        self.register_buffer("center", torch.zeros(1, out_dim))
        self.teacher_temp_schedule = np.concatenate((
            np.linspace(warmup_teacher_temp, teacher_temp, warmup_teacher_temp_epochs),
            np.ones(nepochs - warmup_teacher_temp_epochs) * teacher_temp
        ))

    def forward(self, student_output, teacher_output, epoch):
        student_out = student_output / self.student_temp
        student_out = student_out.chunk(self.ncrops)
        temp = self.teacher_temp_schedule[epoch]
        teacher_out = F.softmax((teacher_output - self.center) / temp, dim=-1)
        teacher_out = teacher_out.detach().chunk(2)
        total_loss = 0
        n_loss_terms = 0
        for iq, q in enumerate(teacher_out):
            for v in range(len(student_out)):
                if v == iq:
                    continue
                loss = torch.sum(-q * F.log_softmax(student_out[v], dim=-1), dim=-1)
                total_loss += loss.mean()
                n_loss_terms += 1
        total_loss /= n_loss_terms
        self.update_center(teacher_output)
        return total_loss

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = torch.sum(teacher_output, dim=0, keepdim=True)
        batch_center = batch_center / len(teacher_output)
        self.center = self.center * self.center_momentum + batch_center * (1 - self.center_momentum)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        return F.adaptive_avg_pool2d(F.relu(self.conv(x)), 1).flatten(1)


class MultiCropWrapper(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone, self.head = backbone, head

    def forward(self, x):
        if not isinstance(x, list):
            x = [x]
        idx_crops = torch.cumsum(torch.unique_consecutive(torch.tensor([inp.shape[-1] for inp in x]), return_counts=True)[1], 0)
        start_idx, output = 0, torch.empty(0).to(x[0].device)
        for end_idx in idx_crops:
            _out = self.backbone(torch.cat(x[start_idx: end_idx]))
            if isinstance(_out, tuple):
                _out = _out[0]
            output = torch.cat((output, _out))
            start_idx = end_idx
        return self.head(output)


def cosine_scheduler(base_value, final_value, epochs, niter_per_ep, warmup_epochs=0, start_warmup_value=0):
    warmup_schedule = np.array([])
    warmup_iters = warmup_epochs * niter_per_ep
    if warmup_epochs > 0:
        warmup_schedule = np.linspace(start_warmup_value, base_value, warmup_iters)
    iters = np.arange(epochs * niter_per_ep - warmup_iters)
    schedule = final_value + 0.5 * (base_value - final_value) * (1 + np.cos(np.pi * iters / len(iters)))
    schedule = np.concatenate((warmup_schedule, schedule))
    assert len(schedule) == epochs * niter_per_ep
    return schedule


def cancel_gradients_last_layer(epoch, model, freeze_last_layer):
    if epoch >= freeze_last_layer:
        return
    for n, p in model.named_parameters():
        if "last_layer" in n:
            p.grad = None


student = MultiCropWrapper(Backbone(), DINOHead(8, 10))
teacher = MultiCropWrapper(Backbone(), DINOHead(8, 10))
teacher.load_state_dict(student.state_dict())
for p in teacher.parameters():
    p.requires_grad = False
print(sorted(n for n, p in student.named_parameters() if not p.requires_grad), student.head.last_layer.weight_g.shape)
dino_loss = DINOLoss(10, ncrops=4, warmup_teacher_temp=0.04, teacher_temp=0.07, warmup_teacher_temp_epochs=2, nepochs=3)
print(dino_loss.teacher_temp_schedule)
momentum_schedule = cosine_scheduler(0.996, 1, 3, 2)
print(np.round(momentum_schedule, 5))
optimizer = torch.optim.AdamW([p for p in student.parameters() if p.requires_grad], lr=1e-3)
images = torch.rand(4, 3, 8, 8)
it = 0
for epoch in range(3):
    for _ in range(2):
        globals_ = [images, images.flip(-1)]
        locals_ = [F.interpolate(images, size=(4, 4), mode="bilinear", align_corners=False), F.interpolate(images, scale_factor=0.5, mode="nearest")]
        teacher_output = teacher(globals_)
        student_output = student(globals_ + locals_)
        loss = dino_loss(student_output, teacher_output, epoch)
        optimizer.zero_grad()
        loss.backward()
        cancel_gradients_last_layer(epoch, student, 1)
        optimizer.step()
        with torch.no_grad():
            m = momentum_schedule[it]
            for param_q, param_k in zip(student.parameters(), teacher.parameters()):
                param_k.data.mul_(m).add_((1 - m) * param_q.detach().data)
        it += 1
    print(epoch, round(loss.item(), 5), student_output.shape, dino_loss.center[0, :3])
print(teacher.head.last_layer.weight_v.grad, student.head.last_layer.weight_v.grad is not None)

# the foreach form of the same EMA update
t_params = [p.detach().clone() for p in teacher.parameters()]
s_params = [p.detach() for p in student.parameters()]
torch._foreach_mul_(t_params, 0.99)
torch._foreach_add_(t_params, s_params, alpha=0.01)
ref = [0.99 * a + 0.01 * b for a, b in zip(teacher.parameters(), student.parameters())]
print(all(torch.allclose(a, b, atol=1e-7) for a, b in zip(t_params, ref)), torch._foreach_norm(t_params)[0])


def byol_loss_fn(x, y):
    x = F.normalize(x, dim=-1, p=2)
    y = F.normalize(y, dim=-1, p=2)
    return 2 - 2 * (x * y).sum(dim=-1)


online = nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 4))
predictor = nn.Sequential(nn.Linear(4, 12), nn.ReLU(), nn.Linear(12, 4))
target = copy.deepcopy(online)
for p in target.parameters():
    p.requires_grad_(False)
v1, v2 = torch.randn(8, 6), torch.randn(8, 6)
with torch.no_grad():
    t1, t2 = target(v1), target(v2)
loss = (byol_loss_fn(predictor(online(v1)), t2.detach()) + byol_loss_fn(predictor(online(v2)), t1.detach())).mean()
print(round(loss.item(), 5), target[1].running_mean[:2], math.isclose(float(momentum_schedule[-1]), 0.99999, rel_tol=1e-4))
