"""The torch.func tutorials: per-sample gradients with functional_call + vmap(grad(...),
in_dims=(None, None, 0, 0)) checked against a loop, model ensembling with stack_module_state and
vmap over a base model on the 'meta' device, jacrev/jacfwd/hessian of small functions and of a
model's parameters, vjp/jvp, grad with has_aux, and a MAML sine-regression inner loop written with
torch.autograd.grad(create_graph=True) and functional_call."""
import copy
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad, jacrev, jacfwd, hessian, vjp, jvp, stack_module_state

torch.manual_seed(0)
device = "cpu"


class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 10)

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
data = torch.randn(batch_size, 1, 8, 8, device=device)
targets = torch.randint(10, (batch_size,), device=device)
model = SimpleCNN().to(device=device)
predictions = model(data)
loss = loss_fn(predictions, targets)
loss.backward()


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
print(per_sample_grads[1].shape, per_sample_grads[0].shape)
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
print(list(ft_per_sample_grads.keys()), ft_per_sample_grads["fc2.bias"][0])
print(torch.allclose(ft_per_sample_grads["fc2.weight"].mean(0), model.fc2.weight.grad, atol=1e-6))

# model ensembling
num_models = 3
minibatches = torch.randn(num_models, 4, 1, 8, 8, device=device)
models = [SimpleCNN().to(device) for _ in range(num_models)]
minibatch = minibatches[0]
predictions1 = [model(minibatch) for model in models]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in list(params.items())[:2]}, params["fc2.bias"].requires_grad)
base_model = copy.deepcopy(models[0])
# The tutorial moves base_model to the 'meta' device here; tinyframe has no meta device (tensors
# without data), by design, so the copy stays on cpu: functional_call swaps its parameters anyway.
print(base_model.fc1.weight.device, base_model.fc1.weight.is_meta)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


predictions1_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
assert torch.allclose(predictions1_vmap, torch.stack(predictions1), atol=1e-3, rtol=1e-5)
predictions2_vmap = vmap(fmodel)(params, buffers, minibatches)
predictions2 = [model(minibatch) for model, minibatch in zip(models, minibatches)]
print(predictions2_vmap.shape, torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-5))

# jacobians and hessians
x = torch.randn(5)
def f(x):
    return x.sin() * x.sum()
print(jacrev(f)(x).shape, torch.allclose(jacrev(f)(x), jacfwd(f)(x), atol=1e-6), hessian(lambda x: (x ** 3).sum())(x).diagonal())
weight, bias = torch.randn(3, 5), torch.randn(3)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
jw, jb = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(jw.shape, jb.shape, jb.diagonal())
batched = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, torch.randn(4, 5))
print(batched.shape)
out, vjp_fn = vjp(f, x)
print(vjp_fn(torch.ones(5))[0])
print(jvp(f, (x,), (torch.ones(5),))[1])
g, aux = grad(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(x)
print(g, aux)
print(vmap(torch.dot)(torch.randn(3, 4), torch.randn(3, 4)), vmap(lambda a: a * 2, in_dims=1, out_dims=1)(torch.ones(2, 3)).shape)

# MAML on sine waves
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def sample_task():
    amp = torch.rand(1) * 4.9 + 0.1
    phase = torch.rand(1) * math.pi
    def sample(n):
        xs = torch.rand(n, 1) * 10 - 5
        return xs, amp * torch.sin(xs + phase)
    return sample


for it in range(3):
    meta_opt.zero_grad()
    total = 0.0
    for _ in range(2):
        task = sample_task()
        x_tr, y_tr = task(5)
        x_te, y_te = task(5)
        fast = dict(net.named_parameters())
        for _ in range(2):
            inner = F.mse_loss(functional_call(net, fast, (x_tr,)), y_tr)
            grads = torch.autograd.grad(inner, fast.values(), create_graph=True)
            fast = {n: p - 0.01 * g for (n, p), g in zip(fast.items(), grads)}
        outer = F.mse_loss(functional_call(net, fast, (x_te,)), y_te)
        outer.backward()
        total += outer.item()
    meta_opt.step()
    print(it, round(total / 2, 4), net[0].weight.grad.norm().item() > 0, fast["0.weight"].grad_fn.name())
