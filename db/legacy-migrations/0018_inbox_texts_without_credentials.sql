-- A conversation's snippet (160 characters), subject (200) and a stranger's display name (120) were
-- cut before Benchline credentials in them were blanked, so a cut through a credential kept most of
-- it where no later clean-up recognises it (issue 16, item 8). They are cut after blanking now; here
-- every credential prefix left in them, whole or cut, is blanked with the address carrying it.
UPDATE "inbox_threads"
SET
	"snippet" = regexp_replace("snippet", '(https?://[^[:space:]<>"''()]*)?bl_(vk|pat|at|rt|code|ul)_[0-9A-Za-z]*', '[credential removed]', 'g'),
	"subject" = regexp_replace("subject", '(https?://[^[:space:]<>"''()]*)?bl_(vk|pat|at|rt|code|ul)_[0-9A-Za-z]*', '[credential removed]', 'g'),
	"counterpart_name" = regexp_replace("counterpart_name", '(https?://[^[:space:]<>"''()]*)?bl_(vk|pat|at|rt|code|ul)_[0-9A-Za-z]*', '[credential removed]', 'g')
WHERE "snippet" ~ 'bl_(vk|pat|at|rt|code|ul)_' OR "subject" ~ 'bl_(vk|pat|at|rt|code|ul)_' OR "counterpart_name" ~ 'bl_(vk|pat|at|rt|code|ul)_';
