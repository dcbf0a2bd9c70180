"""LoRA fine-tuning as public code writes it: the parametrize-based LoRA of the popular
"LoRA from scratch" walkthrough (register_parametrization on weight, enabled flag, lora_A/lora_B with
kaiming/zeros init, freezing everything except lora parameters, counting parameters), and microsoft/loralib's
manual LoRALinear (merge on eval, lora_dropout, mark_only_lora_as_trainable, lora_state_dict), then
remove_parametrizations(leave_parametrized=True) to merge the adapters into the base weights."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, hidden_size_1=32, hidden_size_2=48):
        super(Net, self).__init__()
        self.linear1 = nn.Linear(16, hidden_size_1)
        self.linear2 = nn.Linear(hidden_size_1, hidden_size_2)
        self.linear3 = nn.Linear(hidden_size_2, 4)
        self.relu = nn.ReLU()

    def forward(self, img):
        x = img.view(-1, 16)
        x = self.relu(self.linear1(x))
        x = self.relu(self.linear2(x))
        x = self.linear3(x)
        return x


net = Net()
x = torch.randn(64, 16)
y = (x[:, :4].argmax(1) + (x[:, 4] > 0).long()) % 4
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for epoch in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
print(f"pretrain loss {loss.item():.4f}")
original_weights = {}
for name, param in net.named_parameters():
    original_weights[name] = param.clone().detach()

total_parameters_original = 0
for index, layer in enumerate([net.linear1, net.linear2, net.linear3]):
    total_parameters_original += layer.weight.nelement() + layer.bias.nelement()
    print(f'Layer {index+1}: W: {layer.weight.shape} + B: {layer.bias.shape}')
print(f'Total number of parameters: {total_parameters_original:,}')


class LoRAParametrization(nn.Module):
    def __init__(self, features_in, features_out, rank=1, alpha=1, device='cpu'):
        super().__init__()
        self.lora_A = nn.Parameter(torch.zeros((rank, features_out)).to(device))
        self.lora_B = nn.Parameter(torch.zeros((features_in, rank)).to(device))
        nn.init.normal_(self.lora_A, mean=0, std=1)
        self.scale = alpha / rank
        self.enabled = True

    def forward(self, original_weights):
        if self.enabled:
            return original_weights + torch.matmul(self.lora_B, self.lora_A).view(original_weights.shape) * self.scale
        else:
            return original_weights


def linear_layer_parameterization(layer, device, rank=1, lora_alpha=1):
    features_in, features_out = layer.weight.shape
    return LoRAParametrization(features_in, features_out, rank=rank, alpha=lora_alpha, device=device)


parametrize.register_parametrization(net.linear1, "weight", linear_layer_parameterization(net.linear1, "cpu"))
parametrize.register_parametrization(net.linear2, "weight", linear_layer_parameterization(net.linear2, "cpu"))
parametrize.register_parametrization(net.linear3, "weight", linear_layer_parameterization(net.linear3, "cpu"))


def enable_disable_lora(enabled=True):
    for layer in [net.linear1, net.linear2, net.linear3]:
        layer.parametrizations["weight"][0].enabled = enabled


print(parametrize.is_parametrized(net.linear1), parametrize.is_parametrized(net.linear1, "bias"))
print(type(net.linear1).__name__, type(net.linear1.parametrizations.weight).__name__)
print(net.linear1.parametrizations.weight.original.shape, sorted(net.state_dict().keys())[:4])
total_parameters_lora = 0
total_parameters_non_lora = 0
for index, layer in enumerate([net.linear1, net.linear2, net.linear3]):
    total_parameters_lora += layer.parametrizations["weight"][0].lora_A.nelement() + layer.parametrizations["weight"][0].lora_B.nelement()
    total_parameters_non_lora += layer.weight.nelement() + layer.bias.nelement()
    print(
        f'Layer {index+1}: W: {layer.weight.shape} + B: {layer.bias.shape} + Lora_A: {layer.parametrizations["weight"][0].lora_A.shape} + Lora_B: {layer.parametrizations["weight"][0].lora_B.shape}'
    )
assert total_parameters_non_lora == total_parameters_original
print(f'Total number of parameters (original): {total_parameters_non_lora:,}')
print(f'Total number of parameters (original + LoRA): {total_parameters_lora + total_parameters_non_lora:,}')
print(f'Parameters introduced by LoRA: {total_parameters_lora:,}')
parameters_incremment = (total_parameters_lora / total_parameters_non_lora) * 100
print(f'Parameters incremment: {parameters_incremment:.3f}%')

for name, param in net.named_parameters():
    if 'lora' not in name:
        print(f'Freezing non-LoRA parameter {name}')
        param.requires_grad = False

y2 = (y + 1) % 4
opt = torch.optim.Adam([p for p in net.parameters() if p.requires_grad], lr=1e-2)
for step in range(10):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y2)
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, round(loss.item(), 4))
assert torch.all(net.linear1.parametrizations.weight.original == original_weights['linear1.weight'])
enable_disable_lora(enabled=True)
assert torch.equal(net.linear1.weight, net.linear1.parametrizations.weight.original + (net.linear1.parametrizations.weight[0].lora_B @ net.linear1.parametrizations.weight[0].lora_A) * net.linear1.parametrizations.weight[0].scale)
enable_disable_lora(enabled=False)
assert torch.equal(net.linear1.weight, original_weights['linear1.weight'])
print("disabled loss", round(F.cross_entropy(net(x), y2).item(), 4))
enable_disable_lora(enabled=True)
with parametrize.cached():
    print("cached", torch.allclose(net.linear2.weight, net.linear2.weight), round(F.cross_entropy(net(x), y2).item(), 4))
before = net(x)
for layer in [net.linear1, net.linear2, net.linear3]:
    parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(type(net.linear1).__name__, isinstance(net.linear1.weight, nn.Parameter), net.linear1.weight.requires_grad)
print("merged equal", torch.allclose(net(x), before, atol=1e-6), sorted(net.state_dict().keys()))


# microsoft/loralib style
class LoRALinear(nn.Linear):
    def __init__(self, in_features, out_features, r=0, lora_alpha=1, lora_dropout=0., merge_weights=True, **kwargs):
        nn.Linear.__init__(self, in_features, out_features, **kwargs)
        self.r = r
        self.lora_alpha = lora_alpha
        if lora_dropout > 0.:
            self.lora_dropout = nn.Dropout(p=lora_dropout)
        else:
            self.lora_dropout = lambda x: x
        self.merged = False
        self.merge_weights = merge_weights
        if r > 0:
            self.lora_A = nn.Parameter(self.weight.new_zeros((r, in_features)))
            self.lora_B = nn.Parameter(self.weight.new_zeros((out_features, r)))
            self.scaling = self.lora_alpha / self.r
            self.weight.requires_grad = False
        self.reset_parameters()

    def reset_parameters(self):
        nn.Linear.reset_parameters(self)
        if hasattr(self, 'lora_A'):
            nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
            nn.init.zeros_(self.lora_B)

    def train(self, mode: bool = True):
        nn.Linear.train(self, mode)
        if mode:
            if self.merge_weights and self.merged:
                if self.r > 0:
                    self.weight.data -= (self.lora_B @ self.lora_A) * self.scaling
                self.merged = False
        else:
            if self.merge_weights and not self.merged:
                if self.r > 0:
                    self.weight.data += (self.lora_B @ self.lora_A) * self.scaling
                self.merged = True
        return self

    def forward(self, x: torch.Tensor):
        if self.r > 0 and not self.merged:
            result = F.linear(x, self.weight, bias=self.bias)
            result += (self.lora_dropout(x) @ self.lora_A.transpose(0, 1) @ self.lora_B.transpose(0, 1)) * self.scaling
            return result
        else:
            return F.linear(x, self.weight, bias=self.bias)


def mark_only_lora_as_trainable(model: nn.Module, bias: str = 'none') -> None:
    for n, p in model.named_parameters():
        if 'lora_' not in n:
            p.requires_grad = False
    if bias == 'lora_only':
        for m in model.modules():
            if isinstance(m, LoRALinear) and hasattr(m, 'bias') and m.bias is not None:
                m.bias.requires_grad = True


def lora_state_dict(model: nn.Module, bias: str = 'none'):
    my_state_dict = model.state_dict()
    return {k: my_state_dict[k] for k in my_state_dict if 'lora_' in k}


torch.manual_seed(1)
model = nn.Sequential(LoRALinear(16, 32, r=4, lora_alpha=8, lora_dropout=0.1), nn.GELU(), LoRALinear(32, 4, r=4, lora_alpha=8))
mark_only_lora_as_trainable(model, bias='lora_only')
print([n for n, p in model.named_parameters() if p.requires_grad])
opt = torch.optim.AdamW(filter(lambda p: p.requires_grad, model.parameters()), lr=5e-3, weight_decay=0.01)
model.train()
for step in range(6):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
print("loralib loss", round(loss.item(), 4), model[0].lora_B.abs().sum().item() > 0)
sd = lora_state_dict(model)
print({k: tuple(v.shape) for k, v in sd.items()})
model.eval()
print(model[0].merged, model[2].merged)
with torch.no_grad():
    out_merged = model(x)
model.train()
model[0].lora_dropout.eval()
with torch.no_grad():
    out_unmerged = model(x)
print("merge roundtrip", torch.allclose(out_merged, out_unmerged, atol=1e-5), out_merged[:2])
