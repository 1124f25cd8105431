// Package fit is the physics of fitclaim: a Target (model, quantization, speed) in, the Bounds a
// device must meet out, and which accelerators meet them. It is pure Go and knows nothing of
// YAML, CEL or the browser.
package fit
