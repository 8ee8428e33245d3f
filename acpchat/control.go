package acpchat

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/chat"
)

// errNoSuchMode is a mode the agent does not offer.
var errNoSuchMode = errors.New("no such mode")

// SetPermissionMode switches the session's mode (session/set_mode) to one the agent offers.
func (b *Backend) SetPermissionMode(ctx context.Context, mode string) error {
	if _, err := b.sessionID(ctx); err != nil {
		return err
	}
	if err := b.setMode(ctx, mode); err != nil {
		return err
	}
	b.q.put(chat.Status{PermissionMode: mode})
	return nil
}

func (b *Backend) setMode(ctx context.Context, mode string) error {
	b.mu.Lock()
	modes, sid := b.modes, b.session
	b.mu.Unlock()
	if modes == nil {
		return fmt.Errorf("%w: the agent has no modes", errNoSuchMode)
	}
	var ids []string
	for _, m := range modes.AvailableModes {
		if m.ID == mode {
			if err := b.agent.SetMode(ctx, sid, mode); err != nil {
				return err
			}
			b.mu.Lock()
			b.modes.CurrentModeID = mode
			b.mu.Unlock()
			return nil
		}
		ids = append(ids, m.ID)
	}
	return fmt.Errorf("%w %q: the agent offers %s", errNoSuchMode, mode, strings.Join(ids, ", "))
}

func (b *Backend) currentMode() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.modes == nil {
		return ""
	}
	return b.modes.CurrentModeID
}

// option is the session's config option of a category ("model", "thought_level"), or of
// an id where the agent gives no category (claude-agent-acp's "effort").
func (b *Backend) option(category, id string) (acp.ConfigOption, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, o := range b.configs {
		if o.Category == category || (o.Category == "" && o.ID == id) || o.ID == id {
			return o, true
		}
	}
	return acp.ConfigOption{}, false
}

// setOption sets the option of category to value (session/set_config_option).
func (b *Backend) setOption(ctx context.Context, category, id, value string) error {
	sid, err := b.sessionID(ctx)
	if err != nil {
		return err
	}
	o, ok := b.option(category, id)
	if !ok {
		return fmt.Errorf("the agent has no %s setting", category)
	}
	res, err := b.agent.SetConfigOption(ctx, sid, o.ID, value)
	if err != nil {
		return err
	}
	b.mu.Lock()
	b.configs = res.ConfigOptions
	b.mu.Unlock()
	return nil
}

// SetModel sets the session's model config option.
func (b *Backend) SetModel(ctx context.Context, model string) error {
	return b.setOption(ctx, "model", "model", model)
}

// SetEffort sets the session's thought level config option.
func (b *Backend) SetEffort(ctx context.Context, level string) error {
	return b.setOption(ctx, "thought_level", "effort", level)
}

// Effort is the thought level set, "" where the agent has none.
func (b *Backend) Effort(ctx context.Context) (string, error) {
	o, _ := b.option("thought_level", "effort")
	return o.Current(), nil
}

func (b *Backend) currentModel() string {
	o, _ := b.option("model", "model")
	return o.Current()
}

// models are the model option's values, as the model picker lists the CLI's.
func (b *Backend) models() []chat.Model {
	o, ok := b.option("model", "model")
	if !ok {
		return nil
	}
	var ms []chat.Model
	var add func(vs []acp.ConfigValue)
	add = func(vs []acp.ConfigValue) {
		for _, v := range vs {
			if v.Group != "" || len(v.Options) > 0 {
				add(v.Options)
				continue
			}
			ms = append(ms, chat.Model{Value: v.Value, DisplayName: v.Name, Description: v.Description})
		}
	}
	add(o.Options)
	return ms
}

// ContextUsage is the agent's last usage_update: how full its context window is.
func (b *Backend) ContextUsage(ctx context.Context) (chat.ContextUsage, error) {
	b.mu.Lock()
	u := b.usage
	b.mu.Unlock()
	if u == nil {
		return chat.ContextUsage{}, errors.New("the agent has not reported its context usage")
	}
	cu := chat.ContextUsage{Tokens: int(u.Used), MaxTokens: int(u.Size), Model: b.currentModel()}
	if u.Size > 0 {
		cu.Percent = int((u.Used*100 + u.Size/2) / u.Size)
	}
	return cu, nil
}
