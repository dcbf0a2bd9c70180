"""pytorch.org's "Model ensembling" and "Per-sample-gradients" tutorials (torch.func): an ensemble of
MLPs run on the same and on different minibatches with a loop and with stack_module_state + vmap over a
'meta' base model (in_dims=(0, 0, None) vs (0, 0, 0)), and per-sample gradients of a small CNN by a loop
and by vmap(grad(compute_loss), in_dims=(None, None, 0, 0)) over detached parameters."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, stack_module_state, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


device = "cpu"
num_models = 10
data = torch.randn(100, 64, 1, 28, 28, device=device)
targets = torch.randint(10, (6400,), device=device)
models = [SimpleMLP().to(device) for _ in range(num_models)]
minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()}, buffers)
base_model = copy.deepcopy(models[0])
base_model = base_model.to("meta")


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


print([p.size(0) for p in params.values()])
print(minibatches.shape)
predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
assert torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5)
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
assert torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5)
print(predictions1_vmap.shape, predictions2_vmap.shape, predictions2_vmap.requires_grad)
print(params["fc1.weight"].requires_grad, params["fc1.weight"].is_leaf)


class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.fc1 = nn.Linear(16 * 12 * 12, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)


batch_size = 8
data = torch.randn(batch_size, 1, 28, 28, device=device)
targets = torch.randint(10, (batch_size,), device=device)
model = SimpleCNN().to(device=device)


def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    prediction = model(sample)
    loss = loss_fn(prediction, target)
    return torch.autograd.grad(loss, list(model.parameters()))


def compute_sample_grads(data, targets):
    sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    sample_grads = zip(*sample_grads)
    sample_grads = [torch.stack(shards) for shards in sample_grads]
    return sample_grads


per_sample_grads = compute_sample_grads(data, targets)
print(per_sample_grads[1].shape)
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    loss = loss_fn(predictions, targets)
    return loss


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    assert torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5)
print({k: tuple(v.shape) for k, v in ft_per_sample_grads.items()})
print(f"{ft_per_sample_grads['fc2.bias'].sum(1).abs().max().item():.6f}")
mean_grad = torch.autograd.grad(loss_fn(model(data), targets), list(model.parameters()))
print(all(torch.allclose(g.mean(0), m, atol=1e-5) for g, m in zip(ft_per_sample_grads.values(), mean_grad)))
