module github.com/fitclaim/fitclaim/tools

go 1.26

tool github.com/agnivade/wasmbrowsertest

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/chromedp/cdproto v0.0.0-20250724212937-08a3db8b4327
	github.com/chromedp/chromedp v0.14.2
	github.com/fitclaim/fitclaim v0.0.0
)

require (
	github.com/agnivade/wasmbrowsertest v0.11.0 // indirect
	github.com/chromedp/sysutil v1.1.0 // indirect
	github.com/go-interpreter/wagon v0.6.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20250725192818-e39067aee2d2 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	github.com/gobwas/ws v1.4.0 // indirect
	github.com/google/pprof v0.0.0-20240727154555-813a5fbdbec8 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/sys v0.34.0 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)

// The e2e tests compare the page with the engine itself.
replace github.com/fitclaim/fitclaim => ../
