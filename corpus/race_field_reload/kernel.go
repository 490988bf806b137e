// Package race_field_reload: a config reloader updates the live config struct
// field by field, in place, while request handlers copy it without
// synchronization. A handler can run with a torn config: the timeout of one
// version and the retry budget of another.
package race_field_reload

type Config struct {
	Version int
	Timeout int // ms
	Retries int
}

// Consistent reports whether c is one of the configs the operator wrote.
func (c Config) Consistent() bool {
	return c.Timeout == 100*c.Version && c.Retries == c.Version
}

type Client struct {
	cfg *Config
}

func NewClient(c Config) *Client { return &Client{cfg: &c} }

// Reload applies a new config.
func (c *Client) Reload(n Config) {
	// BUG: in-place field-by-field update of a struct readers copy concurrently
	c.cfg.Version = n.Version
	c.cfg.Timeout = n.Timeout
	c.cfg.Retries = n.Retries
}

// Settings is called by every request handler.
func (c *Client) Settings() Config { return *c.cfg }
