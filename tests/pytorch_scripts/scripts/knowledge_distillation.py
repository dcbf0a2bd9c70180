"""The PyTorch knowledge-distillation tutorial on random images: a deep teacher and a light student,
train_knowledge_distillation with soft targets (softmax/log_softmax at temperature T, the sum-over-batch
KL written out and scaled by T**2), nn.KLDivLoss(reduction="batchmean", log_target=True), the cosine
loss over hidden representations with nn.CosineEmbeddingLoss, and F.kl_div's reductions."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
device = "cuda" if torch.cuda.is_available() else "cpu"


class DeepNN(nn.Module):
    def __init__(self, num_classes=10):
        super(DeepNN, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 8, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.classifier = nn.Sequential(
            nn.Linear(8 * 4 * 4, 64),
            nn.ReLU(),
            nn.Dropout(0.1),
            nn.Linear(64, num_classes)
        )

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        x = self.classifier(x)
        return x


class LightNN(nn.Module):
    def __init__(self, num_classes=10):
        super(LightNN, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 4, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.classifier = nn.Sequential(
            nn.Linear(4 * 4 * 4, 32),
            nn.ReLU(),
            nn.Dropout(0.1),
            nn.Linear(32, num_classes)
        )

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        x = self.classifier(x)
        return x


images = torch.randn(48, 3, 8, 8)
labels = (images.mean(dim=(1, 2, 3)) * 20).long().clamp(-5, 4) + 5
train_loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True)
test_loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=False)


def train(model, train_loader, epochs, learning_rate, device):
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=learning_rate)
    model.train()
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in train_loader:
            inputs, labels = inputs.to(device), labels.to(device)
            optimizer.zero_grad()
            outputs = model(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"Epoch {epoch+1}/{epochs}, Loss: {running_loss / len(train_loader)}")


def test(model, test_loader, device):
    model.to(device)
    model.eval()
    correct = 0
    total = 0
    with torch.no_grad():
        for inputs, labels in test_loader:
            inputs, labels = inputs.to(device), labels.to(device)
            outputs = model(inputs)
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
    accuracy = 100 * correct / total
    print(f"Test Accuracy: {accuracy:.2f}%")
    return accuracy


nn_deep = DeepNN(num_classes=10).to(device)
train(nn_deep, train_loader, epochs=3, learning_rate=0.001, device=device)
test_accuracy_deep = test(nn_deep, test_loader, device)
torch.manual_seed(42)
nn_light = LightNN(num_classes=10).to(device)
torch.manual_seed(42)
new_nn_light = LightNN(num_classes=10).to(device)
print("Norm of 1st layer of nn_light:", torch.norm(nn_light.features[0].weight).item())
print("Norm of 1st layer of new_nn_light:", torch.norm(new_nn_light.features[0].weight).item())
total_params_deep = "{:,}".format(sum(p.numel() for p in nn_deep.parameters()))
print(f"DeepNN parameters: {total_params_deep}")
total_params_light = "{:,}".format(sum(p.numel() for p in nn_light.parameters()))
print(f"LightNN parameters: {total_params_light}")


def train_knowledge_distillation(teacher, student, train_loader, epochs, learning_rate, T, soft_target_loss_weight, ce_loss_weight, device):
    ce_loss = nn.CrossEntropyLoss()
    optimizer = optim.Adam(student.parameters(), lr=learning_rate)
    teacher.eval()
    student.train()
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in train_loader:
            inputs, labels = inputs.to(device), labels.to(device)
            optimizer.zero_grad()
            with torch.no_grad():
                teacher_logits = teacher(inputs)
            student_logits = student(inputs)
            soft_targets = nn.functional.softmax(teacher_logits / T, dim=-1)
            soft_prob = nn.functional.log_softmax(student_logits / T, dim=-1)
            soft_targets_loss = torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size()[0] * (T**2)
            label_loss = ce_loss(student_logits, labels)
            loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"Epoch {epoch+1}/{epochs}, Loss: {running_loss / len(train_loader)}")


train_knowledge_distillation(teacher=nn_deep, student=new_nn_light, train_loader=train_loader, epochs=3, learning_rate=0.001, T=2, soft_target_loss_weight=0.25, ce_loss_weight=0.75, device=device)
test_accuracy_light_ce_and_kd = test(new_nn_light, test_loader, device)

# The same soft-target term through KLDivLoss, as most repositories write it
kl = nn.KLDivLoss(reduction="batchmean", log_target=True)
with torch.no_grad():
    t_logits, s_logits = nn_deep(images[:16]), new_nn_light(images[:16])
T = 4.0
a = kl(F.log_softmax(s_logits / T, dim=1), F.log_softmax(t_logits / T, dim=1)) * T * T
b = nn.KLDivLoss(reduction="batchmean")(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1)) * T * T
manual = torch.sum(F.softmax(t_logits / T, 1) * (F.log_softmax(t_logits / T, 1) - F.log_softmax(s_logits / T, 1))) / 16 * T * T
print(f"{a.item():.6f} {b.item():.6f} {manual.item():.6f}")
for reduction in ["none", "sum", "mean", "batchmean"]:
    r = F.kl_div(F.log_softmax(s_logits[:2], 1), F.log_softmax(t_logits[:2], 1), reduction=reduction, log_target=True)
    print(reduction, tuple(r.shape), r.sum().item())
print(kl)


class ModifiedDeepNNCosine(nn.Module):
    def __init__(self, num_classes=10):
        super(ModifiedDeepNNCosine, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2))
        self.classifier = nn.Sequential(nn.Linear(8 * 4 * 4, 64), nn.ReLU(), nn.Linear(64, num_classes))

    def forward(self, x):
        x = self.features(x)
        flattened_conv_output = torch.flatten(x, 1)
        x = self.classifier(flattened_conv_output)
        flattened_conv_output_after_pooling = torch.nn.functional.avg_pool1d(flattened_conv_output, 2)
        return x, flattened_conv_output_after_pooling


class ModifiedLightNNCosine(nn.Module):
    def __init__(self, num_classes=10):
        super(ModifiedLightNNCosine, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2))
        self.classifier = nn.Sequential(nn.Linear(4 * 4 * 4, 32), nn.ReLU(), nn.Linear(32, num_classes))

    def forward(self, x):
        x = self.features(x)
        flattened_conv_output = torch.flatten(x, 1)
        x = self.classifier(flattened_conv_output)
        return x, flattened_conv_output


torch.manual_seed(42)
teacher, student = ModifiedDeepNNCosine(), ModifiedLightNNCosine()
cosine_loss = nn.CosineEmbeddingLoss()
ce_loss = nn.CrossEntropyLoss()
optimizer = optim.Adam(student.parameters(), lr=0.001)
for inputs, labels in train_loader:
    optimizer.zero_grad()
    with torch.no_grad():
        _, teacher_hidden_representation = teacher(inputs)
    student_logits, student_hidden_representation = student(inputs)
    hidden_rep_loss = cosine_loss(student_hidden_representation, teacher_hidden_representation, target=torch.ones(inputs.size(0)).to(device))
    label_loss = ce_loss(student_logits, labels)
    loss = 0.25 * hidden_rep_loss + 0.75 * label_loss
    loss.backward()
    optimizer.step()
    print(f"cosine {hidden_rep_loss.item():.5f} ce {label_loss.item():.5f}", teacher_hidden_representation.shape)
