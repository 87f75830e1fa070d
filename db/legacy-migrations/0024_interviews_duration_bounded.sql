-- An interview lasts from 1 minute to a day (MAX_INTERVIEW_MINUTES, modules/interviews/table.ts): the calendar
-- reads a window's interviews from the index by their start, beginning that long before the window.
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_duration_bounded" CHECK ("interviews"."duration_minutes" between 1 and 1440);