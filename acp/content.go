package acp

import "encoding/json"

// ContentBlock is one piece of a prompt or of a message chunk (the schema's ContentBlock,
// a union on Type): "text" (Text), "image" and "audio" (Data, base64, and MimeType; an
// image may have a URI), "resource_link" (URI, Name and optionally Title, MimeType, Size)
// and "resource" (Resource, the embedded contents). Fields that do not belong to Type are
// left empty. A block of a type this package does not know keeps only Type and Raw.
type ContentBlock struct {
	Type     string            `json:"type"`
	Text     string            `json:"text,omitempty"`
	Data     string            `json:"data,omitempty"`
	MimeType string            `json:"mimeType,omitempty"`
	URI      string            `json:"uri,omitempty"`
	Name     string            `json:"name,omitempty"`
	Title    string            `json:"title,omitempty"`
	Size     *int64            `json:"size,omitempty"`
	Resource *EmbeddedResource `json:"resource,omitempty"`
	// Annotations and Meta are kept as sent.
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	// Raw is the block as received when its Type is not one of the five above (a newer
	// protocol's), so that nothing is lost; nil otherwise.
	Raw json.RawMessage `json:"-"`
}

// EmbeddedResource is a resource's contents inside a "resource" block: Text for a text
// resource, Blob (base64) for a binary one.
type EmbeddedResource struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// Text is a text block.
func Text(s string) ContentBlock { return ContentBlock{Type: "text", Text: s} }

// ResourceLink is a link to a file or other resource the agent can read itself (any agent
// accepts it in a prompt).
func ResourceLink(uri, name string) ContentBlock {
	return ContentBlock{Type: "resource_link", URI: uri, Name: name}
}

// Resource embeds a text resource in a prompt (needs promptCapabilities.embeddedContext).
func Resource(uri, mimeType, text string) ContentBlock {
	return ContentBlock{Type: "resource", Resource: &EmbeddedResource{URI: uri, MimeType: mimeType, Text: text}}
}

// Image is an image block, data in base64 (needs promptCapabilities.image).
func Image(mimeType, data string) ContentBlock {
	return ContentBlock{Type: "image", MimeType: mimeType, Data: data}
}

// MarshalJSON writes a text block's text even when empty (the schema requires it).
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	type plain ContentBlock
	if b.Type == "text" && b.Text == "" {
		type withText struct {
			plain
			Text string `json:"text"`
		}
		return json.Marshal(withText{plain: plain(b)})
	}
	return json.Marshal(plain(b))
}

// UnmarshalJSON decodes a block, and keeps one of an unknown type raw.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	type plain ContentBlock
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*b = ContentBlock(p)
	switch b.Type {
	case "text", "image", "audio", "resource_link", "resource":
	default:
		b.Raw = append(json.RawMessage(nil), data...)
	}
	return nil
}
