CREATE TABLE "account_transaction_versions" (
	"acnt_txn_id" text NOT NULL,
	"version" integer NOT NULL,
	"raw" jsonb NOT NULL,
	"raw_hash" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "account_transaction_versions_acnt_txn_id_version_pk" PRIMARY KEY("acnt_txn_id","version")
);
--> statement-breakpoint
CREATE TABLE "account_transactions" (
	"acnt_txn_id" text PRIMARY KEY NOT NULL,
	"service_id" text NOT NULL,
	"currency" text NOT NULL,
	"balance_type" text NOT NULL,
	"amount" numeric NOT NULL,
	"balance_upd_date" timestamp with time zone,
	"business_type" text NOT NULL,
	"external_order_id" text,
	"remark" text,
	"raw" jsonb NOT NULL,
	"raw_hash" text NOT NULL,
	"version" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "account_transactions_source_check" CHECK ("account_transactions"."source" in ('sync', 'webhook'))
);
--> statement-breakpoint
CREATE TABLE "card_transaction_versions" (
	"txn_order_no" text NOT NULL,
	"version" integer NOT NULL,
	"raw" jsonb NOT NULL,
	"raw_hash" text NOT NULL,
	"txn_status" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "card_transaction_versions_txn_order_no_version_pk" PRIMARY KEY("txn_order_no","version")
);
--> statement-breakpoint
CREATE TABLE "card_transactions" (
	"txn_order_no" text PRIMARY KEY NOT NULL,
	"card_id" text NOT NULL,
	"txn_type" text NOT NULL,
	"txn_status" text NOT NULL,
	"origin_txn_order_no" text,
	"origin_txn_order_no_for_refund" text,
	"authorization_code" text,
	"auth_message_desc" text,
	"auth_time" timestamp with time zone,
	"transaction_time" timestamp with time zone,
	"settle_time" timestamp with time zone,
	"transaction_amount" numeric,
	"transaction_currency" text,
	"card_amount" numeric,
	"card_currency" text,
	"settle_amount" numeric,
	"settle_currency" text,
	"transaction_fee" numeric,
	"transaction_fee_currency" text,
	"cross_border_fee" numeric,
	"cross_border_fee_currency" text,
	"exchange_fee" numeric,
	"exchange_fee_currency" text,
	"merchant_id" text,
	"merchant_name" text,
	"merchant_country" text,
	"merchant_country_code" text,
	"merchant_state_province" text,
	"merchant_city" text,
	"merchant_postal_code" text,
	"merchant_mcc_code" text,
	"raw" jsonb NOT NULL,
	"raw_hash" text NOT NULL,
	"version" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "card_transactions_status_check" CHECK ("card_transactions"."txn_status" in ('P', 'S', 'F')),
	CONSTRAINT "card_transactions_source_check" CHECK ("card_transactions"."source" in ('sync', 'webhook'))
);
--> statement-breakpoint
CREATE TABLE "operate_record_fees" (
	"operate_record_id" text NOT NULL,
	"fee_index" integer NOT NULL,
	"fee_type" text NOT NULL,
	"fee_amount" numeric NOT NULL,
	"fee_currency" text NOT NULL,
	CONSTRAINT "operate_record_fees_operate_record_id_fee_index_pk" PRIMARY KEY("operate_record_id","fee_index")
);
--> statement-breakpoint
CREATE TABLE "operate_record_versions" (
	"operate_record_id" text NOT NULL,
	"version" integer NOT NULL,
	"raw" jsonb NOT NULL,
	"raw_hash" text NOT NULL,
	"status" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "operate_record_versions_operate_record_id_version_pk" PRIMARY KEY("operate_record_id","version")
);
--> statement-breakpoint
CREATE TABLE "operate_records" (
	"operate_record_id" text PRIMARY KEY NOT NULL,
	"card_id" text NOT NULL,
	"client_request_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"amount" numeric,
	"currency" text,
	"operate_time" timestamp with time zone,
	"remark" text,
	"raw" jsonb NOT NULL,
	"raw_hash" text NOT NULL,
	"version" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "operate_records_status_check" CHECK ("operate_records"."status" in ('P', 'S', 'F')),
	CONSTRAINT "operate_records_source_check" CHECK ("operate_records"."source" in ('sync', 'webhook'))
);
--> statement-breakpoint
CREATE TABLE "service_ids" (
	"service_id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revealed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fetched_at" timestamp with time zone,
	CONSTRAINT "service_ids_source_check" CHECK ("service_ids"."source" in ('operate_record', 'payout', 'ledger'))
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stream" text NOT NULL,
	"kind" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text,
	"windows" integer DEFAULT 0 NOT NULL,
	"pages" integer DEFAULT 0 NOT NULL,
	"records_seen" integer DEFAULT 0 NOT NULL,
	"inserted" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"skipped_downgrades" integer DEFAULT 0 NOT NULL,
	"error" text,
	CONSTRAINT "sync_runs_kind_check" CHECK ("sync_runs"."kind" in ('sync', 'backfill', 'schedule', 'webhook')),
	CONSTRAINT "sync_runs_outcome_check" CHECK ("sync_runs"."outcome" in ('ok', 'failed', 'partial'))
);
--> statement-breakpoint
CREATE TABLE "sync_watermarks" (
	"stream" text PRIMARY KEY NOT NULL,
	"watermark" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_windows" (
	"stream" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"first_failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_windows_stream_window_start_window_end_pk" PRIMARY KEY("stream","window_start","window_end"),
	CONSTRAINT "sync_windows_state_check" CHECK ("sync_windows"."state" in ('failed', 'drifted', 'done'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"request_id" text PRIMARY KEY NOT NULL,
	"event_type" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"attempts" integer DEFAULT 1 NOT NULL,
	"raw" jsonb,
	CONSTRAINT "webhook_events_state_check" CHECK ("webhook_events"."state" in ('processing', 'done'))
);
--> statement-breakpoint
CREATE INDEX "account_transactions_service_idx" ON "account_transactions" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "account_transactions_external_order_idx" ON "account_transactions" USING btree ("external_order_id");--> statement-breakpoint
CREATE INDEX "account_transactions_time_idx" ON "account_transactions" USING btree ("balance_upd_date");--> statement-breakpoint
CREATE INDEX "card_transactions_card_time_idx" ON "card_transactions" USING btree ("card_id","transaction_time");--> statement-breakpoint
CREATE INDEX "card_transactions_time_idx" ON "card_transactions" USING btree ("transaction_time");--> statement-breakpoint
CREATE INDEX "card_transactions_origin_idx" ON "card_transactions" USING btree ("origin_txn_order_no");--> statement-breakpoint
CREATE INDEX "card_transactions_pending_idx" ON "card_transactions" USING btree ("transaction_time") WHERE "card_transactions"."txn_status" = 'P';--> statement-breakpoint
CREATE INDEX "operate_records_card_time_idx" ON "operate_records" USING btree ("card_id","operate_time");--> statement-breakpoint
CREATE INDEX "operate_records_time_idx" ON "operate_records" USING btree ("operate_time");--> statement-breakpoint
CREATE INDEX "operate_records_client_request_idx" ON "operate_records" USING btree ("client_request_id");--> statement-breakpoint
CREATE INDEX "operate_records_pending_idx" ON "operate_records" USING btree ("operate_time") WHERE "operate_records"."status" = 'P';--> statement-breakpoint
CREATE INDEX "service_ids_due_idx" ON "service_ids" USING btree ("revealed_at") WHERE "service_ids"."fetched_at" is null or "service_ids"."fetched_at" < "service_ids"."revealed_at";--> statement-breakpoint
CREATE INDEX "sync_runs_stream_started_idx" ON "sync_runs" USING btree ("stream","started_at");--> statement-breakpoint
CREATE INDEX "sync_windows_open_idx" ON "sync_windows" USING btree ("stream","window_start") WHERE "sync_windows"."state" <> 'done';