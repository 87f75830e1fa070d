-- Apps registered before grant_types was kept were all answered "authorization_code refresh_token"
-- (whatever they sent), so both is what they were told; apps known by a metadata document take
-- theirs from the document at its next fetch (at most a day away: its copy's freshness).
ALTER TABLE "oauth_clients" ADD COLUMN "grant_types" text[] DEFAULT '{"authorization_code","refresh_token"}' NOT NULL;
