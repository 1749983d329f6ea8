CREATE TABLE "identity"."outside_secrets" (
	"service" text NOT NULL,
	"kind" text NOT NULL,
	"principal_id" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	CONSTRAINT "outside_secrets_service_kind_principal_id_pk" PRIMARY KEY("service","kind","principal_id")
);
