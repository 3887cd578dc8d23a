#!/usr/bin/python3
# samples/bind/deploy/kubernetes/check-manifests.py [DIR]
#   bind-agent.yaml and tcp-80.json (of DIR, by default this folder) parse
#   (YAML, JSON), and say what docs/bind-agent.md ("Kubernetes") says: a
#   DaemonSet with hostPID and hostNetwork, whose container drops every
#   capability and adds back exactly the systemd unit's bounding set
#   (samples/bind/deploy/systemd/bind-agent.service), whose --socket is
#   in a hostPath directory mounted at the same path, which is the
#   profile's listenerPath; the profile's listenerMetadata asks only for
#   ports of the agent's --allow and it sends bind() to the listener; the
#   sample pod is hostNetwork, under that Localhost profile. Prints each
#   finding; exit 1 on the first that does not hold.
import json
import os
import sys

import yaml

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.normpath(os.path.join(here, '..', '..', '..', '..'))
d = sys.argv[1] if len(sys.argv) > 1 else here


def check(cond, what):
    print(('ok: ' if cond else 'FAILED: ') + what)
    if not cond:
        sys.exit(1)


with open(os.path.join(d, 'bind-agent.yaml')) as f:
    docs = [x for x in yaml.safe_load_all(f) if x is not None]
kinds = {x.get('kind'): x for x in docs}
check(sorted(kinds) == ['DaemonSet', 'Pod'] and len(docs) == 2,
      'bind-agent.yaml is one DaemonSet and one Pod: %s' % [x.get('kind') for x in docs])
ds, pod = kinds['DaemonSet'], kinds['Pod']
check(ds.get('apiVersion') == 'apps/v1' and pod.get('apiVersion') == 'v1', 'apiVersions apps/v1 and v1')
spec = ds['spec']['template']['spec']
labels = ds['spec']['template']['metadata']['labels']
check(all(labels.get(k) == v for k, v in ds['spec']['selector']['matchLabels'].items()),
      "the DaemonSet's selector matches its pods' labels")
check(spec.get('hostPID') is True, 'hostPID: true (a notification names its caller in the pid namespace of the agent)')
check(spec.get('hostNetwork') is True, "hostNetwork: true (the agent probes and binds in the host's network namespace)")
check(len(spec['containers']) == 1, 'one container')
c = spec['containers'][0]
sc = c['securityContext']
unit = open(os.path.join(top, 'samples/bind/deploy/systemd/bind-agent.service')).read()
bounding = [l.split('=', 1)[1].split() for l in unit.splitlines() if l.startswith('CapabilityBoundingSet=')]
check(len(bounding) == 1, "the unit has one CapabilityBoundingSet= line: %s" % bounding)
want = sorted(x[len('CAP_'):] for x in bounding[0])
check(sc['capabilities'].get('drop') == ['ALL'] and sorted(sc['capabilities'].get('add', [])) == want,
      "the container drops ALL and adds the unit's bounding set %s: %s" % (want, sc['capabilities'].get('add')))
check(sc.get('privileged') is False and sc.get('allowPrivilegeEscalation') is False,
      'not privileged, no privilege escalation')
check(sc.get('runAsUser') == 0, 'runs as uid 0, as the unit does')
args = c['args']
check(args.count('--socket') == 1, 'one --socket')
sock = args[args.index('--socket') + 1]
allow = [args[i + 1] for i, a in enumerate(args) if a == '--allow']
check(bool(allow), '--allow %s' % allow)
sockdir = os.path.dirname(sock)
mounts = {m['name']: m['mountPath'] for m in c['volumeMounts']}
vols = {v['name']: v for v in spec['volumes']}
named = [n for n, p in mounts.items() if p == sockdir]
check(len(named) == 1 and vols[named[0]].get('hostPath', {}).get('path') == sockdir,
      "the socket's directory %s is the node's (hostPath), mounted at the same path" % sockdir)
with open(os.path.join(d, 'tcp-80.json')) as f:
    prof = json.load(f)
check(prof.get('listenerPath') == sock, "tcp-80.json's listenerPath is the agent's --socket %s" % sock)
meta = prof.get('listenerMetadata', '')
check(meta.startswith('allow=') and all(p in allow for p in meta[len('allow='):].split(',')),
      "its listenerMetadata %r asks only for ports of --allow" % meta)
check(any(r.get('names') == ['bind'] and r.get('action') == 'SCMP_ACT_NOTIFY' for r in prof['syscalls']),
      'it sends bind() to the listener')
psc = pod['spec']['containers'][0]['securityContext']
check(pod['spec'].get('hostNetwork') is True, 'the sample pod is hostNetwork')
check(psc['seccompProfile'] == {'type': 'Localhost', 'localhostProfile': 'bind-agent/tcp-80.json'},
      'the sample pod runs under the Localhost profile bind-agent/tcp-80.json')
check(psc.get('runAsUser', 0) != 0 and psc['capabilities'].get('drop') == ['ALL'] and
      not psc['capabilities'].get('add'), 'the sample pod runs as a non-root uid with no capabilities')
