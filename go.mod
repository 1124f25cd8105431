module github.com/fitclaim/fitclaim

go 1.26

require (
	github.com/syumai/workers v0.32.0
	go.yaml.in/yaml/v2 v2.4.2
	sigs.k8s.io/yaml v1.6.0
)
