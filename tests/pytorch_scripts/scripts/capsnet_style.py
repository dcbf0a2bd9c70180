"""Two classic papers as their popular PyTorch ports write them: CapsNet (gram-ai/capsule-networks
style: PrimaryCaps from a Conv2d reshaped into capsules, the squash nonlinearity with
squared_norm / (1 + squared_norm), dynamic routing by agreement with softmax over output capsules and
u_hat computed by matmul of broadcast weights, margin loss with relu(0.9 - v)^2, and the
reconstruction mask from the longest capsule via index_select of an eye matrix); then Gatys neural
style transfer from the PyTorch tutorial: a Normalization module with view(-1, 1, 1) buffers,
ContentLoss / StyleLoss modules with detached targets and Gram matrices (view, mm, div), losses
inserted into an nn.Sequential rebuilt by named children, the model trimmed after the last loss,
and the input image optimised with LBFGS and a closure that clamps under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def squash(tensor, dim=-1):
    squared_norm = (tensor ** 2).sum(dim=dim, keepdim=True)
    scale = squared_norm / (1 + squared_norm)
    return scale * tensor / torch.sqrt(squared_norm)


class CapsuleLayer(nn.Module):
    def __init__(self, num_capsules, num_route_nodes, in_channels, out_channels, kernel_size=None, stride=None,
                 num_iterations=3):
        super(CapsuleLayer, self).__init__()
        self.num_route_nodes, self.num_iterations, self.num_capsules = num_route_nodes, num_iterations, num_capsules
        if num_route_nodes != -1:
            self.route_weights = nn.Parameter(torch.randn(num_capsules, num_route_nodes, in_channels, out_channels))
        else:
            self.capsules = nn.ModuleList([nn.Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride)
                                           for _ in range(num_capsules)])

    def forward(self, x):
        if self.num_route_nodes != -1:
            priors = x[None, :, :, None, :] @ self.route_weights[:, None, :, :, :]
            logits = torch.zeros(*priors.size())
            for i in range(self.num_iterations):
                probs = F.softmax(logits, dim=2)
                outputs = squash((probs * priors).sum(dim=2, keepdim=True))
                if i != self.num_iterations - 1:
                    delta_logits = (priors * outputs).sum(dim=-1, keepdim=True)
                    logits = logits + delta_logits
        else:
            outputs = [capsule(x).view(x.size(0), -1, 1) for capsule in self.capsules]
            outputs = torch.cat(outputs, dim=-1)
            outputs = squash(outputs)
        return outputs


class CapsuleNet(nn.Module):
    def __init__(self, num_classes=3):
        super(CapsuleNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size=3, stride=1)
        self.primary_capsules = CapsuleLayer(num_capsules=4, num_route_nodes=-1, in_channels=8, out_channels=2,
                                             kernel_size=3, stride=2)
        self.digit_capsules = CapsuleLayer(num_capsules=num_classes, num_route_nodes=2 * 2 * 2, in_channels=4,
                                           out_channels=6)
        self.decoder = nn.Sequential(nn.Linear(6 * num_classes, 32), nn.ReLU(inplace=True), nn.Linear(32, 64),
                                     nn.Sigmoid())
        self.num_classes = num_classes

    def forward(self, x, y=None):
        x = F.relu(self.conv1(x), inplace=True)
        x = self.primary_capsules(x)
        x = self.digit_capsules(x).squeeze().transpose(0, 1)
        classes = (x ** 2).sum(dim=-1) ** 0.5
        classes = F.softmax(classes, dim=-1)
        if y is None:
            _, max_length_indices = classes.max(dim=1)
            y = torch.eye(self.num_classes).index_select(dim=0, index=max_length_indices)
        reconstructions = self.decoder((x * y[:, :, None]).reshape(x.size(0), -1))
        return classes, reconstructions


class CapsuleLoss(nn.Module):
    def __init__(self):
        super(CapsuleLoss, self).__init__()
        self.reconstruction_loss = nn.MSELoss(reduction="sum")

    def forward(self, images, labels, classes, reconstructions):
        left = F.relu(0.9 - classes, inplace=True) ** 2
        right = F.relu(classes - 0.1, inplace=True) ** 2
        margin_loss = labels * left + 0.5 * (1.0 - labels) * right
        margin_loss = margin_loss.sum()
        assert torch.numel(images) == torch.numel(reconstructions)
        images = images.view(reconstructions.size()[0], -1)
        reconstruction_loss = self.reconstruction_loss(reconstructions, images)
        return (margin_loss + 0.0005 * reconstruction_loss) / images.size(0)


print("squash norms", squash(torch.tensor([[3.0, 4.0], [0.3, 0.4]])).norm(dim=-1).round(decimals=4).tolist())
caps = CapsuleNet()
images = torch.rand(4, 1, 8, 8)
labels = torch.eye(3).index_select(0, torch.tensor([0, 2, 1, 2]))
opt = torch.optim.Adam(caps.parameters(), lr=1e-2)
criterion = CapsuleLoss()
for step in range(3):
    classes, recon = caps(images, labels)
    loss = criterion(images, labels, classes, recon)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"caps step {step} loss {loss.item():.5f}")
classes, recon = caps(images)
print(classes.shape, recon.shape, classes.argmax(1).tolist(), round(caps.digit_capsules.route_weights.grad.abs().sum().item(), 3))


# ---- Gatys style transfer
class ContentLoss(nn.Module):
    def __init__(self, target):
        super(ContentLoss, self).__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input


def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super(StyleLoss, self).__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, input):
        G = gram_matrix(input)
        self.loss = F.mse_loss(G, self.target)
        return input


class Normalization(nn.Module):
    def __init__(self, mean, std):
        super(Normalization, self).__init__()
        self.register_buffer("mean", torch.tensor(mean).view(-1, 1, 1))
        self.register_buffer("std", torch.tensor(std).view(-1, 1, 1))

    def forward(self, img):
        return (img - self.mean) / self.std


cnn = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 4, 3, padding=1), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Conv2d(4, 6, 3, padding=1), nn.ReLU(), nn.Conv2d(6, 6, 3, padding=1)).eval()
for p in cnn.parameters():
    p.requires_grad_(False)
content_layers, style_layers = ["conv_4"], ["conv_1", "conv_2", "conv_3", "conv_4"]
style_img, content_img = torch.rand(1, 3, 8, 8), torch.rand(1, 3, 8, 8)


def get_style_model_and_losses(cnn, mean, std, style_img, content_img):
    normalization = Normalization(mean, std)
    content_losses, style_losses = [], []
    model = nn.Sequential(normalization)
    i = 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = "conv_{}".format(i)
        elif isinstance(layer, nn.ReLU):
            name = "relu_{}".format(i)
            layer = nn.ReLU(inplace=False)
        elif isinstance(layer, nn.MaxPool2d):
            name = "pool_{}".format(i)
        else:
            raise RuntimeError("Unrecognized layer: {}".format(layer.__class__.__name__))
        model.add_module(name, layer)
        if name in content_layers:
            target = model(content_img).detach()
            content_loss = ContentLoss(target)
            model.add_module("content_loss_{}".format(i), content_loss)
            content_losses.append(content_loss)
        if name in style_layers:
            target_feature = model(style_img).detach()
            style_loss = StyleLoss(target_feature)
            model.add_module("style_loss_{}".format(i), style_loss)
            style_losses.append(style_loss)
    for i in range(len(model) - 1, -1, -1):
        if isinstance(model[i], ContentLoss) or isinstance(model[i], StyleLoss):
            break
    model = model[:(i + 1)]
    return model, style_losses, content_losses


model, style_losses, content_losses = get_style_model_and_losses(cnn, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225],
                                                                 style_img, content_img)
print([name for name, _ in model.named_children()])
print(list(model[0].state_dict().keys()), model[0].mean.shape)
input_img = content_img.clone()
input_img.requires_grad_(True)
model.eval()
model.requires_grad_(False)
optimizer = torch.optim.LBFGS([input_img])
run = [0]
while run[0] <= 6:
    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * 1e4
        content_score = sum(cl.loss for cl in content_losses)
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        if run[0] % 3 == 0:
            print(f"run {run[0]}: Style Loss : {style_score.item():4f} Content Loss: {content_score.item():4f}")
        return style_score + content_score
    optimizer.step(closure)
with torch.no_grad():
    input_img.clamp_(0, 1)
print("changed", round((input_img - content_img).abs().mean().item(), 4), input_img.requires_grad)
