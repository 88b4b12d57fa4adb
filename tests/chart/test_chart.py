"""The Helm chart (helm/referee): rendered by Helm's own engine (helm-python-sdk, Helm v4 as a
library, no helm binary), linted, and every manifest validated by kubernetes-validate --strict
against the lowest and the highest Kubernetes version the chart declares in kubeVersion, for
the default values and real value sets. Then what the schemas cannot see: the shutdown
arithmetic, probes, names and selectors that must agree, the key Secret the server must accept.
"""
from __future__ import annotations

import base64
import copy
import importlib.resources
import json
import re
import warnings
from pathlib import Path

import pytest

helm = pytest.importorskip("helm_python", reason="needs the [k8s] extra (helm-python-sdk)")
kv = pytest.importorskip("kubernetes_validate", reason="needs the [k8s] extra (kubernetes-validate)")
yaml = pytest.importorskip("yaml", reason="needs PyYAML (comes with kubernetes-validate)")
from kubernetes_validate import utils as kv_utils  # noqa: E402

from referee.service.server import SERVICE  # noqa: E402
from referee.service.token import KeyRing  # noqa: E402

CHART = Path(__file__).resolve().parents[2] / "helm" / "referee"
KEY1 = base64.b64encode(bytes(range(32))).decode()
KEY2 = base64.b64encode(bytes(range(32, 64))).decode()
CRD_KINDS = {"ServiceMonitor"}  # not in the Kubernetes schemas: checked below by hand

VALUE_SETS = {
    "defaults": {},
    "autoscaling-off": {"autoscaling": {"enabled": False}, "replicaCount": 2,
                        "podDisruptionBudget": {"enabled": False}},
    "existing-secret": {"tokenKeys": {"existingSecret": "referee-token-keys", "secretKey": "tokens.json"}},
    "extra-env": {"extraEnv": [
        {"name": "PYTHONFAULTHANDLER", "value": "1"},
        {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]},
    "production": {
        "image": {"repository": "registry.example/games/referee",
                  "digest": "sha256:" + "ab" * 32},
        "tokenKeys": {"active": "k2", "keys": {"k1": KEY1, "k2": KEY2}},
        "serviceMonitor": {"enabled": True, "labels": {"release": "prometheus"}},
        "networkPolicy": {
            "grpcFrom": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "games"}}}],
            "metricsFrom": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}]},
        "podDisruptionBudget": {"minAvailable": "50%"},
        "shutdown": {"preStopSleepSeconds": 3, "drainSeconds": 10, "graceSeconds": 20, "marginSeconds": 2},
        "server": {"threads": 8, "stateCache": 1000, "logLevel": "WARNING", "extraArgs": ["--workers=1"]},
        "podAnnotations": {"example.com/team": "games"},
        "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "games", "effect": "NoSchedule"}],
    },
    "http-port": {"server": {"http": {"enabled": True, "port": 8081, "corsOrigins": ["https://play.example", "*"]}},
                  "networkPolicy": {"httpFrom": [{"podSelector": {"matchLabels": {"app": "gateway"}}}]}},
    "metrics-off": {"server": {"metrics": {"enabled": False}}, "headless": {"enabled": False},
                    "networkPolicy": {"enabled": False}, "serviceAccount": {"create": False}},
}


def _declared_versions() -> tuple[str, str]:
    """(lowest, highest) major.minor of Chart.yaml's kubeVersion ">=A.B.x <C.D.x" (highest = C.D-1)."""
    declared = yaml.safe_load((CHART / "Chart.yaml").read_text())["kubeVersion"]
    low = re.search(r">=\s*v?(\d+)\.(\d+)", declared)
    high = re.search(r"<\s*v?(\d+)\.(\d+)", declared)
    assert low and high, f"kubeVersion {declared!r} must have a lower and an upper bound"
    return f"{low[1]}.{low[2]}", f"{high[1]}.{int(high[2]) - 1}"


def _shipped(version: str) -> str:
    """The schema version kubernetes-validate ships for ``version``: the same or the nearest."""
    shipped = {kv_utils.major_minor(v) for v in kv_utils.all_versions()}
    if version in shipped:
        return version
    nearest = min(shipped, key=lambda v: abs(int(v.split(".")[1]) - int(version.split(".")[1])))
    warnings.warn(f"kubernetes-validate ships no {version} schemas; validating against {nearest}")
    return nearest


LOWEST, HIGHEST = _declared_versions()
VERSIONS = sorted({_shipped(LOWEST), _shipped(HIGHEST)})


def render(values: dict, name: str = "demo") -> list[dict]:
    with helm.Chart.load(CHART) as chart:
        out = chart.render(copy.deepcopy(values), name=name, namespace="games")
    docs = []
    for path, text in sorted(out.items()):
        if path.endswith("NOTES.txt"):
            continue
        docs += [d for d in yaml.safe_load_all(text) if d]
    return docs


def by_kind(docs: list[dict]) -> dict[str, list[dict]]:
    kinds: dict[str, list[dict]] = {}
    for d in docs:
        kinds.setdefault(d["kind"], []).append(d)
    return kinds


@pytest.fixture(scope="module", params=sorted(VALUE_SETS))
def rendered(request):
    values = VALUE_SETS[request.param]
    return request.param, values, render(values)


def test_kubernetes_validate_ships_its_schemas_offline():
    """The schemas are files of the package (no download at run time), strict ones included."""
    root = importlib.resources.files("kubernetes_validate") / "kubernetes-json-schema"
    for version in VERSIONS:
        assert (root / f"v{version}.0-local-strict" / "deployment-apps-v1.json").is_file()
    assert LOWEST == VERSIONS[0] and HIGHEST == VERSIONS[-1], "both declared ends are shipped"


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_validates_strictly(rendered, version):
    name, _, docs = rendered
    kinds = {d["kind"] for d in docs}
    assert {"Deployment", "Service"} <= kinds
    for doc in docs:
        if doc["kind"] in CRD_KINDS:
            continue
        try:
            kv.validate(doc, version, strict=True)
        except kv.ValidationError as error:
            path = ".".join(map(str, error.path))
            pytest.fail(f"{name}: {doc['kind']}/{doc['metadata']['name']} on {version}: {path}: {error.message}")


@pytest.mark.parametrize("version", VERSIONS)
def test_lint_is_clean(rendered, version):
    name, values, _ = rendered
    report = helm.lint(CHART, copy.deepcopy(values), strict=True, kube_version=f"v{version}.0")
    problems = [m for m in report["messages"] if m["severity"] >= 2] + report["errors"]
    assert problems == [], f"{name}: {problems}"


def test_default_objects():
    kinds = by_kind(render({}))
    assert sorted(kinds) == ["Deployment", "HorizontalPodAutoscaler", "NetworkPolicy",
                             "PodDisruptionBudget", "Secret", "Service", "ServiceAccount"]
    assert len(kinds["Service"]) == 2


def _pod(docs):
    return by_kind(docs)["Deployment"][0]["spec"]["template"]


def _container(docs):
    return _pod(docs)["spec"]["containers"][0]


def _args(container) -> dict[str, str]:
    return dict(a[2:].split("=", 1) for a in container["args"] if a.startswith("--") and "=" in a)


def test_shutdown_arithmetic(rendered):
    """SIGTERM comes after the preStop sleep; the server then exits within drain + grace, which
    must end before the kubelet's SIGKILL at terminationGracePeriodSeconds."""
    name, values, docs = rendered
    pod = _pod(docs)["spec"]
    container = _container(docs)
    shutdown = {"preStopSleepSeconds": 5, "drainSeconds": 5, "graceSeconds": 10, "marginSeconds": 5}
    shutdown.update(values.get("shutdown", {}))
    pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    args = _args(container)
    drain, grace = float(args["drain"]), float(args["grace"])
    total = pod["terminationGracePeriodSeconds"]
    assert (pre_stop, drain, grace) == (shutdown["preStopSleepSeconds"], shutdown["drainSeconds"],
                                        shutdown["graceSeconds"])
    assert total == pre_stop + drain + grace + shutdown["marginSeconds"]
    assert drain + grace < total - pre_stop, name


def test_probes_security_and_keys(rendered):
    name, values, docs = rendered
    pod = _pod(docs)
    container = _container(docs)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert _args(container)["port"] == str(ports["grpc"])
    # readiness: the health of the service the server serves (an unknown name is never SERVING)
    for probe, service in (("startupProbe", SERVICE.full_name), ("readinessProbe", SERVICE.full_name),
                           ("livenessProbe", None)):
        assert container[probe]["grpc"]["port"] == ports["grpc"]
        assert container[probe]["grpc"].get("service") == service
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] and not security["allowPrivilegeEscalation"]
    assert security["capabilities"]["drop"] == ["ALL"]
    assert pod["spec"]["securityContext"]["runAsNonRoot"] and pod["spec"]["securityContext"]["runAsUser"] != 0
    assert pod["spec"]["automountServiceAccountToken"] is False
    # the key file the server reads is the Secret's key, mounted read-only
    volume = next(v for v in pod["spec"]["volumes"] if v["name"] == "token-keys")["secret"]
    mount = next(m for m in container["volumeMounts"] if m["name"] == "token-keys")
    assert mount["readOnly"]
    key = volume["items"][0]["key"]
    assert _args(container)["key-file"] == f"{mount['mountPath']}/{volume['items'][0]['path']}"
    secrets = by_kind(docs).get("Secret", [])
    existing = values.get("tokenKeys", {}).get("existingSecret")
    if existing:
        assert secrets == [] and volume["secretName"] == existing and key == values["tokenKeys"]["secretKey"]
    else:
        (secret,) = secrets
        assert volume["secretName"] == secret["metadata"]["name"]
        ring = KeyRing.from_json(base64.b64decode(secret["data"][key]))  # what `referee serve` loads
        wanted = values.get("tokenKeys", {})
        if wanted.get("keys"):
            assert ring.active == wanted["active"]
            assert {k: base64.b64encode(v).decode() for k, v in ring.keys.items()} == wanted["keys"]
            assert "checksum/token-keys" in pod["metadata"]["annotations"]  # a key change rolls the pods
        else:
            assert list(ring.keys) == [ring.active]  # one generated key
    env = {e["name"]: e for e in container["env"]}
    for extra in values.get("extraEnv", []):
        assert env[extra["name"]] == extra


def test_services_select_the_pods_and_name_real_ports(rendered):
    name, values, docs = rendered
    kinds = by_kind(docs)
    pod_labels = _pod(docs)["metadata"]["labels"]
    container_ports = {p["name"] for p in _container(docs)["ports"]}
    for service in kinds["Service"]:
        assert service["spec"]["selector"].items() <= pod_labels.items()
        assert {p["targetPort"] for p in service["spec"]["ports"]} <= container_ports
        assert len(service["metadata"]["name"]) <= 63
    headless = [s for s in kinds["Service"] if s["spec"].get("clusterIP") == "None"]
    assert len(headless) == (0 if values.get("headless", {}).get("enabled") is False else 1)
    metrics_on = values.get("server", {}).get("metrics", {}).get("enabled", True)
    assert ("metrics" in container_ports) == metrics_on
    assert _args(_container(docs))["metrics-port"] == ("9100" if metrics_on else "0")
    http = values.get("server", {}).get("http", {})
    assert ("http" in container_ports) == bool(http.get("enabled"))
    if http.get("enabled"):  # the normal Service carries it; probes stay on gRPC
        (normal,) = [s for s in kinds["Service"] if s["spec"].get("clusterIP") != "None"]
        assert {"name": "http", "port": http["port"], "targetPort": "http", "protocol": "TCP",
                "appProtocol": "http"} in normal["spec"]["ports"]
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert "grpc" in _container(docs)[probe]
        (policy,) = kinds["NetworkPolicy"]
        assert {"ports": [{"port": "http", "protocol": "TCP"}], "from": values["networkPolicy"]["httpFrom"]} \
            in policy["spec"]["ingress"]
    for kind in ("PodDisruptionBudget", "NetworkPolicy"):
        for doc in kinds.get(kind, []):
            selector = doc["spec"]["selector" if kind == "PodDisruptionBudget" else "podSelector"]
            assert selector["matchLabels"].items() <= pod_labels.items()
    for policy in kinds.get("NetworkPolicy", []):
        assert {p["port"] for rule in policy["spec"]["ingress"] for p in rule["ports"]} <= container_ports
    for monitor in kinds.get("ServiceMonitor", []):  # a CRD: checked by hand
        assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
        matched = [s for s in kinds["Service"]
                   if monitor["spec"]["selector"]["matchLabels"].items() <= s["metadata"]["labels"].items()]
        assert len(matched) == 1 and matched[0]["spec"].get("clusterIP") != "None"  # scraped once
        assert {e["port"] for e in monitor["spec"]["endpoints"]} <= {p["name"] for p in matched[0]["spec"]["ports"]}
        assert monitor["metadata"]["labels"]["release"] == "prometheus"


def test_autoscaling_owns_the_replica_count(rendered):
    name, values, docs = rendered
    kinds = by_kind(docs)
    deployment = kinds["Deployment"][0]
    if values.get("autoscaling", {}).get("enabled", True):
        (hpa,) = kinds["HorizontalPodAutoscaler"]
        assert hpa["apiVersion"] == "autoscaling/v2"
        assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
        assert hpa["spec"]["metrics"][0]["resource"]["name"] == "cpu"
        assert "replicas" not in deployment["spec"]
        assert _container(docs)["resources"]["requests"]["cpu"]
    else:
        assert "HorizontalPodAutoscaler" not in kinds
        assert deployment["spec"]["replicas"] == values["replicaCount"]


def test_long_release_names_fit():
    docs = render({}, name="a-very-long-release-name-for-the-games-platform-team-x")
    for doc in docs:
        assert len(doc["metadata"]["name"]) <= 63, doc["metadata"]["name"]


@pytest.mark.parametrize("values, needle", [
    ({"replicaCount": "three"}, "replicaCount"),
    ({"replicas": 3}, "replicas"),
    ({"tokenKeys": {"active": "k1", "keys": {"k1": "too short"}}}, "k1"),
    ({"shutdown": {"drainSeconds": -1}}, "drainSeconds"),
    ({"server": {"logLevel": "LOUD"}}, "logLevel"),
    ({"image": {"digest": "latest"}}, "digest"),
])
def test_schema_refuses_bad_values(values, needle):
    with helm.Chart.load(CHART) as chart:
        with pytest.raises(helm.HelmError) as caught:
            chart.validate_schema(values)
    assert needle in str(caught.value)


@pytest.mark.parametrize("values, needle", [
    ({"tokenKeys": {"active": "k3", "keys": {"k1": KEY1}}}, "k3"),
    ({"tokenKeys": {"keys": {"k1": KEY1}}}, "tokenKeys.active"),
    ({"serviceMonitor": {"enabled": True}, "server": {"metrics": {"enabled": False}}}, "metrics"),
    ({"autoscaling": {"minReplicas": 5, "maxReplicas": 2}}, "maxReplicas"),
    ({"resources": {"requests": {"cpu": None}}}, "cpu"),  # null deletes a default
])
def test_inconsistent_values_fail_the_render(values, needle):
    with pytest.raises(helm.HelmError) as caught:
        render(values)
    assert needle in str(caught.value)


def test_values_schema_is_json():
    schema = json.loads((CHART / "values.schema.json").read_text())
    defaults = yaml.safe_load((CHART / "values.yaml").read_text())
    assert set(defaults) <= set(schema["properties"])


def test_container_args_parse_as_referee_serve(rendered):
    """Every argument the chart passes is one `referee serve` accepts, with the values given."""
    from referee.service import cli

    name, values, docs = rendered
    container = _container(docs)
    args = cli.parser().parse_args(container["args"])
    server = {"threads": 4, "stateCache": 4096, **values.get("server", {})}
    assert (args.command, args.threads, args.state_cache) == ("serve", server["threads"], server["stateCache"]), name
    http = server.get("http", {})
    assert args.http_port == (http["port"] if http.get("enabled") else None)
    assert args.cors_origin == (http.get("corsOrigins", []) if http.get("enabled") else [])
