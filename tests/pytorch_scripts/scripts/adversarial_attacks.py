"""Adversarial examples as the pytorch.org FGSM tutorial, Madry's PGD (MadryLab/robustness,
Harry24k/adversarial-attacks-pytorch) and Carlini-Wagner write them: x.grad.data.sign(), clamp to
[0, 1], projection with torch.min/torch.max on tensor bounds, random starts with uniform_, targeted
attacks, the tanh-space CW objective, and one step of adversarial training (TRADES' KL term)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(8 * 3 * 3, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 1))
        x = x.view(-1, 8 * 3 * 3)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


model = Net()
labels = torch.tensor([0, 1, 2, 0, 1, 2])
images = torch.rand(6, 1, 12, 12) * 0.5
for i, c in enumerate(labels.tolist()):
    images[i, 0, 4 * c:4 * c + 4, :] += 0.4
# a few clean training steps so that the model is not random
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(40):
    opt.zero_grad()
    F.nll_loss(model(images), labels).backward()
    opt.step()
model.eval()


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image


def test(model, epsilon):
    correct = 0
    adv_examples = []
    for i in range(images.size(0)):
        data, target = images[i:i + 1].clone(), labels[i:i + 1]
        data.requires_grad = True
        output = model(data)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != target.item():
            continue
        loss = F.nll_loss(output, target)
        model.zero_grad()
        loss.backward()
        data_grad = data.grad.data
        perturbed_data = fgsm_attack(data, epsilon, data_grad)
        output = model(perturbed_data)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == target.item():
            correct += 1
        elif len(adv_examples) < 2:
            adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
            adv_examples.append((init_pred.item(), final_pred.item(), round(float(adv_ex.mean()), 4)))
    final_acc = correct / float(images.size(0))
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {images.size(0)} = {final_acc:.4f}", adv_examples)
    return final_acc


accuracies = [test(model, eps) for eps in [0, .05, .1, .2, .3]]
print("accuracies", [round(a, 4) for a in accuracies])


def pgd(model, x, y, eps=0.1, alpha=0.02, steps=7, random_start=True, targeted=False):
    x_adv = x.clone().detach()
    if random_start:
        x_adv = x_adv + torch.empty_like(x_adv).uniform_(-eps, eps)
        x_adv = torch.clamp(x_adv, min=0, max=1).detach()
    for _ in range(steps):
        x_adv.requires_grad = True
        loss = F.nll_loss(model(x_adv), y)
        grad = torch.autograd.grad(loss, x_adv, retain_graph=False, create_graph=False)[0]
        if targeted:
            grad = -grad
        x_adv = x_adv.detach() + alpha * grad.sign()
        delta = torch.clamp(x_adv - x, min=-eps, max=eps)
        x_adv = torch.clamp(x + delta, min=0, max=1).detach()
    return x_adv


x_pgd = pgd(model, images, labels)
print("pgd linf", round((x_pgd - images).abs().max().item(), 4), "in box", bool(((x_pgd >= 0) & (x_pgd <= 1)).all()))
print("pgd acc", (model(x_pgd).argmax(1) == labels).float().mean().item())
target = (labels + 1) % 3
x_t = pgd(model, images, target, eps=0.3, steps=10, random_start=False, targeted=True)
print("targeted hit rate", (model(x_t).argmax(1) == target).float().mean().item())

# projection onto the eps ball with tensor bounds, the way robustness' L2/Linf steps write it
lower, upper = (images - 0.1).clamp(min=0), (images + 0.1).clamp(max=1)
z = images + torch.randn_like(images) * 0.5
proj = torch.max(torch.min(z, upper), lower)
print("proj", proj.sub(images).abs().amax(dim=(1, 2, 3)).tolist())
print("clamp tensor bounds", torch.equal(proj, z.clamp(min=lower, max=upper)))

# L2 PGD step: normalise the gradient per example, renorm the perturbation
delta = torch.zeros_like(images, requires_grad=True)
loss = F.nll_loss(model(images + delta), labels)
loss.backward()
g = delta.grad
g_norm = g.view(g.size(0), -1).norm(p=2, dim=1).view(-1, 1, 1, 1) + 1e-10
step = g / g_norm * 0.5
step_renorm = step.renorm(p=2, dim=0, maxnorm=0.3)
print("l2 step norms", step.flatten(1).norm(dim=1).round(decimals=4).tolist())
print("renormed", step_renorm.flatten(1).norm(dim=1).round(decimals=4).tolist())

# Carlini-Wagner in tanh space
w = torch.atanh((images * 2 - 1).clamp(-1 + 1e-6, 1 - 1e-6)).detach().requires_grad_()
cw_opt = torch.optim.Adam([w], lr=0.05)
one_hot = F.one_hot(labels, 3).bool()
for step_i in range(20):
    x_cw = 0.5 * (torch.tanh(w) + 1)
    logits = model(x_cw)
    real = logits[one_hot]
    other = logits.masked_fill(one_hot, -1e4).max(1)[0]
    f = torch.clamp(real - other, min=-0.0)
    l2 = (x_cw - images).pow(2).flatten(1).sum(1)
    cost = (l2 + 2.0 * f).sum()
    cw_opt.zero_grad()
    cost.backward()
    cw_opt.step()
    if step_i % 5 == 4:
        print("cw", step_i, round(cost.item(), 4), round(l2.mean().item(), 5))

# TRADES: KL between clean and adversarial predictions, adversary from the KL gradient
model.train()
criterion_kl = nn.KLDivLoss(reduction="sum")
x_adv = images.detach() + 0.001 * torch.randn(images.shape).detach()
model.eval()
for _ in range(3):
    x_adv.requires_grad_()
    with torch.enable_grad():
        loss_kl = criterion_kl(F.log_softmax(model(x_adv), dim=1), F.softmax(model(images), dim=1))
    grad = torch.autograd.grad(loss_kl, [x_adv])[0]
    x_adv = x_adv.detach() + 0.02 * torch.sign(grad.detach())
    x_adv = torch.min(torch.max(x_adv, images - 0.1), images + 0.1)
    x_adv = torch.clamp(x_adv, 0.0, 1.0)
print("trades kl", round(loss_kl.item(), 5))
x_adv = torch.autograd.Variable(torch.clamp(x_adv, 0.0, 1.0), requires_grad=False)
model.train()
torch.manual_seed(1)
opt.zero_grad()
logits = model(images)
loss_natural = F.cross_entropy(logits, labels)
loss_robust = (1.0 / images.size(0)) * criterion_kl(F.log_softmax(model(x_adv), dim=1), F.softmax(model(images), dim=1))
loss = loss_natural + 6.0 * loss_robust
loss.backward()
print("trades", round(loss_natural.item(), 4), round(loss_robust.item(), 5), x_adv.requires_grad, loss.grad_fn)
print("grad norm", round(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0).item(), 4))
