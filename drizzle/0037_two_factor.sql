CREATE TABLE "recovery_codes" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"user_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recovery_codes_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "second_factors" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"secret" text,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "second_factors_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "second_factors_kind_check" CHECK ("second_factors"."kind" in ('totp'))
);
--> statement-breakpoint
CREATE TABLE "sign_in_challenges" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_challenges_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "sign_in_challenges_purpose_check" CHECK ("sign_in_challenges"."purpose" in ('verify', 'setup'))
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "require_two_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_company_id_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_factors" ADD CONSTRAINT "second_factors_company_id_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_company_id_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "second_factors_one_totp_idx" ON "second_factors" USING btree ("company_id","user_id") WHERE "second_factors"."kind" = 'totp';--> statement-breakpoint
CREATE INDEX "sign_in_challenges_token_hash_idx" ON "sign_in_challenges" USING btree ("token_hash");