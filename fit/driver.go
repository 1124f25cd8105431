package fit

// Driver names a DRA driver family a claim can target.
type Driver struct {
	Name        string // the value of Target.Driver
	Domain      string // the attribute domain and the default DeviceClass name
	Bandwidth   bool   // whether the selector can enforce the bandwidth floor
	Vendor      string // the accelerators' vendor it selects; "" = every vendor (llmfit.ai)
	ProductList bool   // the bandwidth floor becomes a productName allow-list
}

const (
	DriverLlmfit = "llmfit"
	DriverNVIDIA = "nvidia"
	DriverAMD    = "amd"
	DriverIntel  = "intel"
	DriverAny    = "any"
)

var drivers = []Driver{
	{Name: DriverLlmfit, Domain: "llmfit.ai", Bandwidth: true},
	{Name: DriverNVIDIA, Domain: "gpu.nvidia.com", Bandwidth: true, Vendor: "nvidia", ProductList: true},
	{Name: DriverAMD, Domain: "gpu.amd.com", Vendor: "amd"},
	{Name: DriverIntel, Domain: "gpu.intel.com", Vendor: "intel"},
	// any: one request whose firstAvailable sub-requests try llmfit.ai, then NVIDIA.
	{Name: DriverAny, Bandwidth: true},
}

// DriverNames lists the accepted Target.Driver values.
func DriverNames() []string { return namesOf(drivers, func(d *Driver) string { return d.Name }) }

func driverByName(name string) (Driver, bool) {
	for _, d := range drivers {
		if d.Name == name {
			return d, true
		}
	}
	return Driver{}, false
}

// LookupDriver returns a driver by name (llmfit, nvidia, amd, intel, any).
func LookupDriver(name string) (Driver, bool) { return driverByName(name) }

// AnyAlternatives are the drivers that driver "any" tries, in order.
func AnyAlternatives() []Driver {
	l, _ := driverByName(DriverLlmfit)
	n, _ := driverByName(DriverNVIDIA)
	return []Driver{l, n}
}
