package app

// craFields reads a receipt section (a JSON list of {name, value}) into a
// map by name.
func craFields(v any) map[string]string {
	out := map[string]string{}
	list, _ := v.([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		name, _ := m["name"].(string)
		value, _ := m["value"].(string)
		out[name] = value
	}
	return out
}
