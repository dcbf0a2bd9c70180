"""Attribution methods as jacobgil/pytorch-grad-cam, Captum and the "guided backprop" blog posts write
them: Grad-CAM from a forward hook that stores activations and a tensor hook that stores their
gradients, register_full_backward_hook on ReLUs that rewrites grad_input (guided backprop),
integrated gradients along a straight path with torch.linspace, SmoothGrad, input x gradient,
upsampling the map with F.interpolate and min-max normalising it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
        )
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.classifier = nn.Linear(16, n_classes)

    def forward(self, x):
        x = self.features(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)


model = SmallCNN().eval()
img = torch.rand(2, 3, 16, 16)


class ActivationsAndGradients:
    """Class for extracting activations and registering gradients from targetted intermediate layers"""

    def __init__(self, model, target_layers):
        self.model = model
        self.gradients = []
        self.activations = []
        self.handles = []
        for target_layer in target_layers:
            self.handles.append(target_layer.register_forward_hook(self.save_activation))
            self.handles.append(target_layer.register_forward_hook(self.save_gradient))

    def save_activation(self, module, input, output):
        self.activations.append(output.cpu().detach())

    def save_gradient(self, module, input, output):
        if not hasattr(output, "requires_grad") or not output.requires_grad:
            return

        def _store_grad(grad):
            self.gradients = [grad.cpu().detach()] + self.gradients

        output.register_hook(_store_grad)

    def __call__(self, x):
        self.gradients = []
        self.activations = []
        return self.model(x)

    def release(self):
        for handle in self.handles:
            handle.remove()


target_layer = model.features[-1]
extractor = ActivationsAndGradients(model, [target_layer])
print("hooks registered", len(target_layer._forward_hooks))
output = extractor(img)
target_category = output.argmax(dim=1)
print("predicted", target_category.tolist())
model.zero_grad()
loss = sum(output[i, target_category[i]] for i in range(output.size(0)))
loss.backward(retain_graph=True)
activations, grads = extractor.activations[0], extractor.gradients[0]
weights = grads.mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * activations).sum(dim=1, keepdim=True))
cam = F.interpolate(cam, size=img.shape[-2:], mode="bilinear", align_corners=False)
flat = cam.view(cam.size(0), -1)
cam_min, cam_max = flat.min(dim=1, keepdim=True)[0], flat.max(dim=1, keepdim=True)[0]
cam = ((flat - cam_min) / (cam_max - cam_min + 1e-7)).view_as(cam)
print("cam shape", tuple(cam.shape), "mean", cam.mean(dim=(1, 2, 3)).round(decimals=4).tolist())
print("cam peak", [divmod(int(i), 16) for i in cam.view(2, -1).argmax(dim=1)])
extractor.release()
print("hooks after release", len(target_layer._forward_hooks))

# Grad-CAM++ weights from the same gradients
grads_power_2 = grads ** 2
grads_power_3 = grads_power_2 * grads
sum_activations = torch.sum(activations, dim=(2, 3))
aij = grads_power_2 / (2 * grads_power_2 + sum_activations[:, :, None, None] * grads_power_3 + 1e-7)
aij = torch.where(grads != 0, aij, torch.zeros_like(aij))
pp_weights = (torch.maximum(grads, torch.tensor(0.0)) * aij).sum(dim=(2, 3))
print("grad-cam++ weights", pp_weights[0, :5].round(decimals=5).tolist())


# Guided backpropagation: ReLU backward hooks clamp the gradient to positive values
class GuidedBackprop:
    def __init__(self, model):
        self.model = model
        self.hooks = []
        for module in model.modules():
            if isinstance(module, nn.ReLU):
                self.hooks.append(module.register_full_backward_hook(self.relu_hook))

    @staticmethod
    def relu_hook(module, grad_in, grad_out):
        return (torch.clamp(grad_in[0], min=0.0),)

    def generate(self, x, target):
        x = x.clone().requires_grad_(True)
        out = self.model(x)
        one_hot = torch.zeros_like(out).scatter_(1, target.unsqueeze(1), 1.0)
        out.backward(gradient=one_hot)
        return x.grad


gb = GuidedBackprop(model)
g = gb.generate(img, target_category)
print("guided grads", tuple(g.shape), round(g.abs().sum().item(), 4), "neg frac", round((g < 0).float().mean().item(), 4))
for h in gb.hooks:
    h.remove()
plain = img.clone().requires_grad_()
model(plain).gather(1, target_category[:, None]).sum().backward()
print("vanilla grads", round(plain.grad.abs().sum().item(), 4))


def integrated_gradients(model, x, target, baseline=None, steps=16):
    if baseline is None:
        baseline = torch.zeros_like(x)
    alphas = torch.linspace(0, 1, steps).view(-1, 1, 1, 1)
    path = baseline + alphas * (x - baseline)
    path.requires_grad_(True)
    out = model(path)[:, target]
    grads = torch.autograd.grad(out.sum(), path)[0]
    avg_grads = (grads[:-1] + grads[1:]).mul(0.5).mean(dim=0)  # trapezoidal rule
    return (x - baseline) * avg_grads


for i in range(2):
    attr = integrated_gradients(model, img[i:i + 1], int(target_category[i]))
    with torch.no_grad():
        delta = model(img[i:i + 1])[0, target_category[i]] - model(torch.zeros_like(img[i:i + 1]))[0, target_category[i]]
    print(f"IG sum {attr.sum().item():.4f} vs output delta {delta.item():.4f}")


def smoothgrad(model, x, target, n=8, sigma=0.15):
    total = torch.zeros_like(x)
    for _ in range(n):
        noisy = (x + torch.randn_like(x) * sigma).requires_grad_()
        model(noisy)[0, target].backward()
        total += noisy.grad
    return total / n


sg = smoothgrad(model, img[:1], int(target_category[0]))
print("smoothgrad", round(sg.abs().mean().item(), 6), sg.abs().amax(dim=1).shape)
ixg = (img[:1] * sg).sum(dim=1).squeeze(0)
print("input x grad top-3", ixg.flatten().topk(3).indices.tolist())
