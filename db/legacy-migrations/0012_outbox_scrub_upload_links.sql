-- Upload links written before the outbox sealed them (0011): rows already sent or given up on keep
-- no copy of the link. Rows still waiting keep theirs until sent, or it would never reach the candidate.
UPDATE "outbox"
SET "text" = regexp_replace("text", '(https?://[^[:space:]<>"''()]*)?bl_ul_[0-9A-Za-z]{36}', '[private link, sent to the recipient only]', 'g'), "carries_private" = true
WHERE "status" IN ('sent', 'failed', 'not_sent') AND "text" ~ 'bl_ul_[0-9A-Za-z]{36}';
