"""pytorch.org's "Pruning Tutorial": LeNet, random_unstructured on conv1.weight (weight_orig and
weight_mask, the forward pre-hook), l1_unstructured on the bias, iterative ln_structured pruning and the
PruningContainer history, state_dict keys, prune.remove making it permanent, pruning several parameters
of a model, global_unstructured with the global sparsity printed, and a custom pruning method
(FooBarPruningMethod removing every other entry)."""
import torch
from torch import nn
import torch.nn.utils.prune as prune
import torch.nn.functional as F

torch.manual_seed(42)


class LeNet(nn.Module):
    def __init__(self):
        super(LeNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


model = LeNet()
module = model.conv1
print(list(module.named_parameters())[1])
print(list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print([name for name, _ in module.named_parameters()])
print([name for name, _ in module.named_buffers()])
print(int((module.weight == 0).sum()), module.weight.shape)
print(torch.equal(module.weight, module.weight_orig * module.weight_mask))
print(module._forward_pre_hooks)
prune.l1_unstructured(module, name="bias", amount=3)
print([name for name, _ in module.named_parameters()])
print(module.bias_mask)
print(module.bias)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight.flatten(1).abs().sum(1) > 0)
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(list(hook))
print(model.state_dict().keys())
prune.remove(module, "weight")
print([name for name, _ in module.named_parameters()])
print([name for name, _ in module.named_buffers()])

new_model = LeNet()
for name, module in new_model.named_modules():
    if isinstance(module, torch.nn.Conv2d):
        prune.l1_unstructured(module, name="weight", amount=0.2)
    elif isinstance(module, torch.nn.Linear):
        prune.l1_unstructured(module, name="weight", amount=0.4)
print(dict(new_model.named_buffers()).keys())

model = LeNet()
parameters_to_prune = (
    (model.conv1, "weight"),
    (model.conv2, "weight"),
    (model.fc1, "weight"),
    (model.fc2, "weight"),
    (model.fc3, "weight"),
)
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
for m, label in ((model.conv1, "conv1"), (model.conv2, "conv2"), (model.fc1, "fc1"), (model.fc2, "fc2"),
                 (model.fc3, "fc3")):
    print("Sparsity in {}.weight: {:.2f}%".format(
        label, 100. * float(torch.sum(m.weight == 0)) / float(m.weight.nelement())))
total = sum(float(torch.sum(m.weight == 0)) for m, _ in parameters_to_prune)
print("Global sparsity: {:.2f}%".format(100. * total / sum(m.weight.nelement() for m, _ in parameters_to_prune)))


class FooBarPruningMethod(prune.BasePruningMethod):
    """Prune every other entry in a tensor"""
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module


model = LeNet()
foobar_unstructured(model.fc3, name="bias")
print(model.fc3.bias_mask)
out = model(torch.randn(2, 1, 28, 28))
out.sum().backward()
print(out.shape, model.fc3.bias_orig.grad)
print(prune.is_pruned(model))
