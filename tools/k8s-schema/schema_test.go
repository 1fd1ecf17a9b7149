// Package k8sschema checks the Kubernetes manifests sdnbench-engine prints (`--agents k8s...`,
// crates/engine/src/k8s.rs) by strict decoding into Kubernetes' own API types (k8s.io/api):
// an unknown or misspelt field, a wrong type or a bad quantity fails. It also checks what ties
// the objects together (the Service selects the Job's pods, the pods' subdomain is the Service,
// the coordinator address the pods dial is the one the Service gives, the ConfigMap exists).
//
// The engine binary: $SDNBENCH_ENGINE, else ../../target/release/sdnbench-engine.
package k8sschema

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// strict decodes YAML or JSON as the API server does: YAML to JSON (duplicate keys refused), then
// case-sensitive JSON with unknown and duplicate fields refused (sigs.k8s.io/json; encoding/json
// alone would take "containerport" for "containerPort").
func strict(data []byte, v interface{}) error {
	j, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return err
	}
	strictErrs, err := kjson.UnmarshalStrict(j, v, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	if len(strictErrs) > 0 {
		return fmt.Errorf("%v", strictErrs)
	}
	return nil
}

// Every manifest shape the engine prints: the coordinator choices, with and without a pod count.
var variants = [][]string{
	{"--agents", "k8s", "--switches", "100000"},
	{"--agents", "k8s:3", "--switches", "12"},
	{"--agents", "k8s:1", "--switches", "1"},
	{"--agents", "k8s:4@pod0:9000", "--switches", "100000"},
	{"--agents", "k8s@pod0", "--switches", "60000"},
	{"--agents", "k8s:4@10.0.0.5:7070", "--switches", "100000"},
	{"--agents", "k8s:2@[fd00::5]:7070", "--switches", "8"},
	{"--agents", "k8s:4@none", "--switches", "100000"},
	{"--agents", "k8s:2", "--switches", "8", "--mode", "fixed-rate", "--rate", "2000", "--controller", "ctl.bench.svc:6653"},
}

func engine(t *testing.T) string {
	if p := os.Getenv("SDNBENCH_ENGINE"); p != "" {
		return p
	}
	p, err := filepath.Abs("../../target/release/sdnbench-engine")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func print(t *testing.T, args []string) []byte {
	out, err := exec.Command(engine(t), args...).Output()
	if err != nil {
		t.Fatalf("sdnbench-engine %v: %v", args, err)
	}
	return out
}

// The objects of one manifest, decoded strictly.
type objects struct {
	configMaps []corev1.ConfigMap
	services   []corev1.Service
	slices     []discoveryv1.EndpointSlice
	jobs       []batchv1.Job
}

// decode decodes a manifest (a v1 List) strictly into Kubernetes' types.
func decode(manifest []byte) (*objects, error) {
	var list corev1.List
	if err := strict(manifest, &list); err != nil {
		return nil, fmt.Errorf("List: %w", err)
	}
	if list.APIVersion != "v1" || list.Kind != "List" {
		return nil, fmt.Errorf("top level is %s %s, not v1 List", list.APIVersion, list.Kind)
	}
	o := &objects{}
	for i, item := range list.Items {
		var meta struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := json.Unmarshal(item.Raw, &meta); err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		var err error
		switch meta.APIVersion + " " + meta.Kind {
		case "v1 ConfigMap":
			var x corev1.ConfigMap
			err = strict(item.Raw, &x)
			o.configMaps = append(o.configMaps, x)
		case "v1 Service":
			var x corev1.Service
			err = strict(item.Raw, &x)
			o.services = append(o.services, x)
		case "discovery.k8s.io/v1 EndpointSlice":
			var x discoveryv1.EndpointSlice
			err = strict(item.Raw, &x)
			o.slices = append(o.slices, x)
		case "batch/v1 Job":
			var x batchv1.Job
			err = strict(item.Raw, &x)
			o.jobs = append(o.jobs, x)
		default:
			err = fmt.Errorf("unexpected object %s %s", meta.APIVersion, meta.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("item %d (%s): %w", i, meta.Kind, err)
		}
	}
	return o, nil
}

func flag(cmd []string, name string) string {
	for _, c := range cmd {
		if strings.HasPrefix(c, name+"=") {
			return strings.TrimPrefix(c, name+"=")
		}
	}
	return ""
}

// coherent checks what ties the objects together.
func coherent(o *objects) error {
	if len(o.jobs) != 1 || len(o.configMaps) != 1 {
		return fmt.Errorf("want one Job and one ConfigMap, got %d and %d", len(o.jobs), len(o.configMaps))
	}
	job, cm := o.jobs[0], o.configMaps[0]
	for _, n := range []string{job.Name, cm.Name} {
		if errs := validation.IsDNS1123Label(n); len(errs) > 0 {
			return fmt.Errorf("name %q: %v", n, errs)
		}
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		return fmt.Errorf("the Job is not Indexed")
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism || *s.Completions < 1 {
		return fmt.Errorf("completions and parallelism must be equal (all pods at once)")
	}
	pod := s.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever || len(pod.Containers) != 1 {
		return fmt.Errorf("want restartPolicy Never and one container")
	}
	if pod.Volumes[0].ConfigMap == nil || pod.Volumes[0].ConfigMap.Name != cm.Name {
		return fmt.Errorf("the pods mount a ConfigMap that is not in the manifest")
	}
	if _, ok := cm.Data["run.json"]; !ok {
		return fmt.Errorf("the ConfigMap has no run.json")
	}
	c := pod.Containers[0]
	coord, serve := flag(c.Command, "--coordinator"), flag(c.Command, "--serve")
	switch {
	case coord == "" && serve == "": // no coordinator: no Service
		if len(o.services) != 0 {
			return fmt.Errorf("a Service without a coordinator")
		}
	case serve != "": // pod 0 coordinates: NAME-0.SERVICE, the Service selecting the pods
		if len(o.services) != 1 || len(o.slices) != 0 {
			return fmt.Errorf("pod 0 coordinates: want one Service and no EndpointSlice")
		}
		svc := o.services[0]
		if svc.Spec.ClusterIP != corev1.ClusterIPNone || pod.Subdomain != svc.Name {
			return fmt.Errorf("the Service must be headless and the pods' subdomain")
		}
		for k, v := range svc.Spec.Selector {
			if s.Template.Labels[k] != v {
				return fmt.Errorf("the Service's selector %s=%s does not select the pods", k, v)
			}
		}
		port := fmt.Sprint(svc.Spec.Ports[0].Port)
		if coord != job.Name+"-0."+svc.Name+":"+port || !strings.HasSuffix(serve, ":"+port) || fmt.Sprint(c.Ports[0].ContainerPort) != port {
			return fmt.Errorf("pod 0's address %s / %s is not the Service's (%s-0.%s:%s)", coord, serve, job.Name, svc.Name, port)
		}
	default: // outside the cluster: a selectorless Service whose only endpoint it is
		if len(o.services) != 1 || len(o.slices) != 1 {
			return fmt.Errorf("an outside coordinator: want one Service and one EndpointSlice")
		}
		svc, eps := o.services[0], o.slices[0]
		if svc.Spec.ClusterIP != corev1.ClusterIPNone || len(svc.Spec.Selector) != 0 {
			return fmt.Errorf("the Service must be headless and without a selector")
		}
		if eps.Labels[discoveryv1.LabelServiceName] != svc.Name || len(eps.Endpoints) != 1 || *eps.Ports[0].Port != svc.Spec.Ports[0].Port {
			return fmt.Errorf("the EndpointSlice is not the Service's")
		}
		if coord != fmt.Sprintf("%s:%d", svc.Name, svc.Spec.Ports[0].Port) {
			return fmt.Errorf("the pods dial %s, not the Service", coord)
		}
	}
	return nil
}

func TestEveryManifestDecodesStrictlyAndHangsTogether(t *testing.T) {
	for _, args := range variants {
		o, err := decode(print(t, args))
		if err != nil {
			t.Errorf("%v: %v", args, err)
			continue
		}
		if err := coherent(o); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// A misspelt field, at the top of an object or deep in the pod template, fails the strict decode.
func TestAMisspeltFieldFails(t *testing.T) {
	good := string(print(t, variants[1]))
	for _, typo := range [][2]string{
		{`"completionMode"`, `"completionMod"`},
		{`"containerPort"`, `"containerport"`},
		{`"publishNotReadyAddresses"`, `"publishNotReadyAdresses"`},
		{`"readOnly"`, `"readonly"`},
	} {
		if !strings.Contains(good, typo[0]) {
			t.Fatalf("%s is not in the manifest", typo[0])
		}
		_, err := decode([]byte(strings.Replace(good, typo[0], typo[1], 1)))
		if err == nil || !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("%s -> %s: want an unknown-field error, got %v", typo[0], typo[1], err)
		}
	}
	// a wrong type and a bad quantity fail too
	for _, bad := range [][2]string{{`"parallelism": 3`, `"parallelism": "3"`}, {`"cpu": "1"`, `"cpu": "one"`}} {
		if _, err := decode([]byte(strings.Replace(good, bad[0], bad[1], 1))); err == nil {
			t.Errorf("%s -> %s decoded", bad[0], bad[1])
		}
	}
	// and what ties the objects together is checked
	o, err := decode([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	o.jobs[0].Spec.Template.Spec.Subdomain = "elsewhere"
	if coherent(o) == nil {
		t.Errorf("a pod subdomain that is not the Service passed")
	}
}
