import math
import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype)
model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
print(model)
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.1, -0.05, 0.02]]))
    model[0].bias.fill_(0.01)
loss_fn = torch.nn.MSELoss(reduction='sum')
print(loss_fn)
learning_rate = 1e-6
for t in range(200):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, round(loss.item(), 3))
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x + {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3')
print(y_pred.grad_fn, y_pred.shape)
print([n for n, _ in model.named_parameters()])
print(sum(p.numel() for p in model.parameters()))
# optim version
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.1, -0.05, 0.02]]))
    model[0].bias.fill_(0.01)
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
print(optimizer)
for t in range(200):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, round(loss.item(), 3))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(optimizer.state_dict()['param_groups'])
print(sorted(optimizer.state_dict()['state'][0].keys()))
